// MuJoCo 2.2.2 as an engine of the peer benchmark, built from a coulomb scene through MJCF written
// in memory (a virtual file system holds the one file).
//
// Mapping of the scene: each free body → a <body> with a free joint and an explicit inertial
// (the body frame at the centre of mass, principal axes along it: mass and diagonal inertia as
// coulomb has them); its shape → a sphere or box geom; fixed bodies → geoms of the world body
// (the ground plane, walls). Contacts: condim 3 (normal and two-dimensional friction) on the
// elliptic cone, friction μ on every geom (MuJoCo takes the larger of the two geoms': μ),
// MuJoCo's default soft-constraint parameters (solref 0.02 s time constant, damping ratio 1;
// solimp 0.9–0.95): contacts are a stiff spring-damper resolved implicitly, so bodies rest
// slightly inside each other and there is no restitution parameter (critical damping: none).
// Solver PGS (projected Gauss–Seidel on the dual), semi-implicit Euler, sparse Jacobian.
//
// mjData is one buffer whose size is an int (mjData::nbuffer, bytes): MuJoCo 2.2.2 sizes it for
// njmax constraint rows, and its dense njmax × njmax and njmax × nv arrays pass 2 GiB near a
// thousand spheres. The buffer is computed here before allocating it; a scene that does not fit
// is reported as "cannot allocate", and a run whose contacts overflow the lists is flagged.
#include <mujoco/mjxmacro.h>
#include <mujoco/mujoco.h>

#include <fmt/format.h>

#include <climits>
#include <csetjmp>
#include <cstdint>
#include <cstring>
#include <variant>

#include "peers/engine.hpp"

namespace coulomb::bench {
namespace {

// MuJoCo reports errors through one process-wide hook (mju_user_error) and expects it not to
// return; the hook jumps back to the call that armed it. Only this file sets it, and the driver
// is single-threaded; thread_local keeps two threads' engines apart all the same.
thread_local std::jmp_buf* g_error_jump = nullptr;
thread_local char g_error_message[512];

extern "C" void on_mujoco_error(const char* message) {
  std::snprintf(g_error_message, sizeof g_error_message, "%s", message);
  if (g_error_jump != nullptr) std::longjmp(*g_error_jump, 1);
  std::abort();  // an error outside an armed call: nothing to return to
}
extern "C" void on_mujoco_warning(const char*) {}  // counted in mjData::warning, read per run

void install_mujoco_hooks() {
  mju_user_error = on_mujoco_error;
  mju_user_warning = on_mujoco_warning;
}

// Runs `call(arg)` (a MuJoCo call) with the error hook armed; false if MuJoCo raised an error
// (its message in g_error_message). No C++ object with a destructor lives between setjmp and
// the call, so the jump skips nothing.
template <typename Arg>
bool guarded(void (*call)(Arg), Arg arg) {
  std::jmp_buf here;
  g_error_jump = &here;
  if (setjmp(here) != 0) {
    g_error_jump = nullptr;
    return false;
  }
  call(arg);
  g_error_jump = nullptr;
  return true;
}

// The bytes of the one mjData buffer MuJoCo 2.2.2 allocates for `m` (every pointer field of
// mjxmacro.h's MJDATA_POINTERS, each rounded up to 8 bytes as the library aligns them), in 64
// bits so that a size past INT_MAX is seen.
std::int64_t data_buffer_bytes(const mjModel* m) {
  MJDATA_POINTERS_PREAMBLE(m)
  std::int64_t bytes = 0;
#define X(type, name, nr, nc) \
  bytes += (static_cast<std::int64_t>(sizeof(type)) * m->nr * (nc) + 7) / 8 * 8;
  MJDATA_POINTERS
#undef X
      (void)
  nv;
  (void)njmax;
  return bytes;
}

// Rows of the constraint problem a contact takes with condim 3 on the elliptic cone.
constexpr int kRowsPerContact = 3;
// The largest mjData buffer [bytes]: mjData::nbuffer is an int; 64 MiB are left for what the
// size computation here might miss.
constexpr std::int64_t kBufferLimit = INT_MAX - (std::int64_t{64} << 20);

// The number of contacts to size the lists for: a sphere in a pile touches about six others
// (three contacts per sphere) plus the ground or a wall; a box in a stack or pyramid rests on
// one or two others and carries one or two, with up to 4 points per face pair (MuJoCo's box–box
// test returns up to 8 a pair): 16 per box. With room for the first impacts.
int contact_estimate(const Model& model) {
  std::int64_t n = 100;
  for (const Body& body : model.bodies) {
    if (body.fixed) continue;
    const Geometry& g = model.shapes[static_cast<std::size_t>(body.first_shape)].geometry;
    n += std::holds_alternative<Sphere>(g) ? 4 : 16;
  }
  return static_cast<int>(std::min<std::int64_t>(n, INT_MAX / 8));
}

std::string num(double x) { return fmt::format("{:.17g}", x); }
std::string vec(const Vec3& v) {
  return fmt::format("{} {} {}", num(v.x()), num(v.y()), num(v.z()));
}
std::string quat(const Quat& q) {  // MuJoCo's order: w x y z
  return fmt::format("{} {} {} {}", num(q.w()), num(q.x()), num(q.y()), num(q.z()));
}

// The geom element of a shape placed at (x, q) (spheres, boxes, planes: check_peer_compatible).
std::string geom_xml(const Geometry& g, const Vec3& x, const Quat& q) {
  if (const auto* s = std::get_if<Sphere>(&g))
    return fmt::format(R"(<geom type="sphere" size="{}" pos="{}" quat="{}"/>)", num(s->radius),
                       vec(x), quat(q));
  if (const auto* b = std::get_if<Box>(&g))
    return fmt::format(R"(<geom type="box" size="{}" pos="{}" quat="{}"/>)", vec(b->half_extents),
                       vec(x), quat(q));
  // A plane {n·x = offset} of the body frame (x, q): MuJoCo's plane is z = 0 of its geom frame,
  // solid below, so the geom frame is the body frame moved by n·offset and turned z → n.
  const auto& p = std::get<Plane>(g);
  const Quat q_plane = q * Quat::FromTwoVectors(Vec3::UnitZ(), p.normal);
  return fmt::format(R"(<geom type="plane" size="0 0 1" pos="{}" quat="{}"/>)",
                     vec(x + q * (p.normal * p.offset)), quat(q_plane));
}

// The MJCF of a scene with room for `contacts` contacts.
std::string scene_xml(const Scene& scene, const PeerSettings& settings, double mu, int contacts) {
  const Model& model = scene.model;
  const State& state = scene.state;
  std::string xml = fmt::format(
      R"(<mujoco model="bench">
<compiler inertiafromgeom="false"/>
<option timestep="{}" gravity="{}" cone="elliptic" solver="PGS" iterations="{}" tolerance="{}" jacobian="sparse"/>
<size nconmax="{}" njmax="{}"/>
<default><geom condim="3" friction="{} 0 0"/></default>
<worldbody>
)",
      num(model.time_step), vec(model.gravity), settings.mujoco_iterations,
      num(settings.mujoco_tolerance), contacts, kRowsPerContact * contacts, num(mu));
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    const Geometry& g = model.shapes[static_cast<std::size_t>(body.first_shape)].geometry;
    // Fixed bodies are geoms of the world body; free bodies carry their own frame.
    if (body.fixed) {
      xml += geom_xml(g, state.x_WC[b], state.q_WB[b]) + "\n";
      continue;
    }
    xml += fmt::format(
        R"(<body pos="{}" quat="{}"><joint type="free"/><inertial pos="0 0 0" mass="{}" diaginertia="{}"/>{}</body>
)",
        vec(state.x_WC[b]), quat(state.q_WB[b]), num(body.mass), vec(body.inertia_B.diagonal()),
        geom_xml(g, Vec3::Zero(), Quat::Identity()));
  }
  xml += "</worldbody>\n</mujoco>\n";
  return xml;
}

class MujocoEngine final : public Engine {
 public:
  MujocoEngine(const Scene& scene, const PeerSettings& settings) {
    const Model& model = scene.model;
    const State& state = scene.state;
    check_peer_compatible(model);
    // A driven body would be a mocap body here, its velocity not seen by the contacts the way
    // coulomb's and Bullet's kinematic bodies are: not mapped.
    for (const Body& b : model.bodies)
      if (b.driven()) throw PeerUnavailable("driven bodies are not mapped to MuJoCo here");
    const SceneLaw law = scene_law(model);
    install_mujoco_hooks();

    // The contact lists sized for the scene, or as large as the int that sizes mjData's buffer
    // allows (computed on the model compiled with lists of one contact: MuJoCo's compiler
    // allocates one mjData to check a model, so an oversized one fails inside mj_loadXML).
    const int wanted =
        settings.mujoco_contacts > 0 ? settings.mujoco_contacts : contact_estimate(model);
    int free_bodies = 0;
    for (const Body& b : model.bodies) free_bodies += b.fixed ? 0 : 1;
    // First a lower bound from the sizes alone (a model of only free bodies, nothing else), which
    // spares compiling a scene that cannot fit (MuJoCo takes minutes on 10⁵ bodies): even one
    // contact per body does not fit beyond a few thousand bodies.
    mjModel bound{};
    bound.nbody = free_bodies + 1;
    bound.njnt = free_bodies;
    bound.nq = 7 * free_bodies;
    bound.nv = 6 * free_bodies;
    bound.nconmax = free_bodies;
    bound.njmax = kRowsPerContact * free_bodies;
    if (data_buffer_bytes(&bound) > kBufferLimit)
      throw PeerUnavailable(fmt::format(
          "cannot allocate: {} contacts ({} rows), one per body, need at least a {:.1f} GiB "
          "mjData buffer, whose size is an int (at most 2 GiB)",
          free_bodies, kRowsPerContact * free_bodies,
          static_cast<double>(data_buffer_bytes(&bound)) / (1 << 30)));
    // Then the exact size, on the compiled model.
    mjModel* probe = load(scene_xml(scene, settings, law.mu, 1));
    mjModel sized = *probe;  // a copy of the sizes only: nothing of it is freed or written
    auto bytes_for = [&sized](int contacts) {
      sized.nconmax = contacts;
      sized.njmax = kRowsPerContact * contacts;
      return data_buffer_bytes(&sized);
    };
    int contacts = wanted;
    if (bytes_for(wanted) > kBufferLimit) {
      // Bisection on the largest list that fits (the size grows with the list).
      int lo = 0, hi = wanted;
      while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        (bytes_for(mid) <= kBufferLimit ? lo : hi) = mid;
      }
      contacts = lo;
    }
    const double wanted_gib = static_cast<double>(bytes_for(wanted)) / (1 << 30);
    mj_deleteModel(probe);
    // Fewer contacts than free bodies: a pile would lose most of its contacts.
    if (contacts < free_bodies)
      throw PeerUnavailable(fmt::format(
          "cannot allocate: {} contacts ({} rows) need a {:.1f} GiB mjData buffer, whose size "
          "is an int (at most 2 GiB); {} contacts would fit, fewer than the {} bodies",
          wanted, kRowsPerContact * wanted, wanted_gib, contacts, free_bodies));
    if (contacts < wanted)
      capped_ = fmt::format(
          "contact list capped at {} by the int-sized buffer ({} wanted, {:.1f} "
          "GiB); ",
          contacts, wanted, wanted_gib);
    model_ = load(scene_xml(scene, settings, law.mu, contacts));
    g_error_message[0] = '\0';
    if (!guarded(&MujocoEngine::make_data, this) || data_ == nullptr) {
      mj_deleteModel(model_);
      model_ = nullptr;
      throw PeerUnavailable(fmt::format("cannot allocate: {}", g_error_message));
    }

    // Where each coulomb body's free joint lives in qpos and qvel; initial velocities (MuJoCo's
    // free joint takes the angular velocity in the body frame).
    int joint = 0;
    slots_.resize(model.bodies.size(), Slot{-1, -1});
    for (std::size_t b = 0; b < model.bodies.size(); ++b) {
      if (model.bodies[b].fixed) continue;
      Slot& s = slots_[b];
      s.qpos = model_->jnt_qposadr[joint];
      s.dof = model_->jnt_dofadr[joint];
      ++joint;
      const Vec3 w_B = state.q_WB[b].conjugate() * state.w_W[b];
      for (int i = 0; i < 3; ++i) {
        data_->qvel[s.dof + i] = state.v_WC[b][i];
        data_->qvel[s.dof + 3 + i] = w_B[i];
      }
    }
  }

  MujocoEngine(const MujocoEngine&) = delete;
  MujocoEngine& operator=(const MujocoEngine&) = delete;

  ~MujocoEngine() override {
    if (data_ != nullptr) mj_deleteData(data_);
    if (model_ != nullptr) mj_deleteModel(model_);
  }

  bool step() override {
    // One step; a MuJoCo error (its stack exhausted, say) ends the run.
    if (!guarded(&MujocoEngine::step_once, this)) {
      failure_ = fmt::format("MuJoCo error: {}", g_error_message);
      return false;
    }
    return true;
  }

  [[nodiscard]] int iterations() const override { return data_->solver_iter; }

  void read(State& out) const override {
    for (std::size_t b = 0; b < slots_.size(); ++b) {
      const Slot& s = slots_[b];
      if (s.qpos < 0) continue;
      const mjtNum* qp = data_->qpos + s.qpos;
      const mjtNum* qv = data_->qvel + s.dof;
      out.x_WC[b] = Vec3(qp[0], qp[1], qp[2]);
      out.q_WB[b] = Quat(qp[3], qp[4], qp[5], qp[6]).normalized();
      out.v_WC[b] = Vec3(qv[0], qv[1], qv[2]);
      out.w_W[b] = out.q_WB[b] * Vec3(qv[3], qv[4], qv[5]);
    }
  }

  [[nodiscard]] std::string failure() const override { return failure_; }

  [[nodiscard]] std::string notes() const override {
    // The lists' overflows (contacts or rows dropped), and the peak use.
    std::string out = capped_;
    const int full_contacts = data_->warning[mjWARN_CONTACTFULL].number;
    const int full_rows = data_->warning[mjWARN_CNSTRFULL].number;
    if (full_contacts > 0 || full_rows > 0)
      out += fmt::format("{} contacts and {} rows dropped over the run (lists full); ",
                         full_contacts, full_rows);
    return out + fmt::format("peak {} contacts, {} rows", data_->maxuse_con, data_->maxuse_efc);
  }

 private:
  struct Slot {
    int qpos;  // index of the free joint's position in qpos (-1: a fixed body)
    int dof;   // index of its velocity in qvel
  };

  // Compiles MJCF text through a virtual file system holding it as its one file.
  static mjModel* load(const std::string& xml) {
    auto vfs = std::make_unique<mjVFS>();  // about 2 MB: not on the stack
    mj_defaultVFS(vfs.get());
    const char* file = "bench.xml";
    if (mj_makeEmptyFileVFS(vfs.get(), file, static_cast<int>(xml.size())) != 0)
      throw PeerUnavailable("the MJCF does not fit MuJoCo's virtual file system");
    std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), file)], xml.data(), xml.size());
    char error[1000] = "";
    mjModel* m = mj_loadXML(file, vfs.get(), error, sizeof error);
    mj_deleteVFS(vfs.get());
    if (m == nullptr) throw PeerUnavailable(fmt::format("MuJoCo rejected the MJCF: {}", error));
    return m;
  }

  static void make_data(MujocoEngine* self) { self->data_ = mj_makeData(self->model_); }
  static void step_once(MujocoEngine* self) { mj_step(self->model_, self->data_); }

  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  std::vector<Slot> slots_;  // (nbodies)
  std::string failure_;
  std::string capped_;  // what the table says when the contact list was capped
};

}  // namespace

std::unique_ptr<Engine> make_mujoco_engine(const Scene& scene, const PeerSettings& settings) {
  return std::make_unique<MujocoEngine>(scene, settings);
}

std::string mujoco_settings(const PeerSettings& settings) {
  return fmt::format(
      "MuJoCo {} C API, MJCF in memory: timestep h, cone elliptic, condim 3, friction μ, solver "
      "PGS, at most {} iterations, tolerance {}, jacobian sparse, integrator Euler, default soft "
      "contacts (solref 0.02 1, solimp 0.9 0.95 0.001), contact lists sized for the scene",
      mj_versionString(), settings.mujoco_iterations, settings.mujoco_tolerance);
}

}  // namespace coulomb::bench
