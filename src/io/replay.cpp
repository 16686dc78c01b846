// The replay recorder and the replay.html writer (see include/coulomb/io/replay.hpp and
// docs/replay.md). Frame data is kept as Float32 (what the page uses) from the moment it arrives,
// so the recorder's memory is what the page will hold.

#include <coulomb/io/output.hpp>
#include <coulomb/io/replay.hpp>

#include "io/replay_detail.hpp"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <type_traits>

// The viewer template bundled by viewer/ (present when node/npm were found at build time). It
// defines `coulomb_replay_template` (the page, with the data marker) and its length.
#if defined(COULOMB_HAVE_REPLAY_TEMPLATE) && __has_include(<coulomb_replay_template.inc>)
#include <coulomb_replay_template.inc>
#define COULOMB_REPLAY_EMBEDDED 1
#else
#define COULOMB_REPLAY_EMBEDDED 0
#endif

namespace coulomb {
namespace {

// Where the template takes the data; the viewer build checks it appears exactly once.
constexpr std::string_view kDataMarker = "<!-- coulomb:replay-data -->";

// The template, or empty when the viewer was not built.
std::string_view replay_template() {
#if COULOMB_REPLAY_EMBEDDED
  return {coulomb_replay_template, coulomb_replay_template_size};
#else
  return {};
#endif
}

// Little-endian bytes of 32-bit values (float or uint32), whatever the host's byte order.
template <class T>
std::string le_bytes32(const std::vector<T>& values) {
  static_assert(sizeof(T) == 4);
  std::string out(4 * values.size(), '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto u = std::bit_cast<std::uint32_t>(values[i]);
    for (int b = 0; b < 4; ++b) out[4 * i + b] = static_cast<char>((u >> (8 * b)) & 0xffu);
  }
  return out;
}

// A JSON array of a pose (position then quaternion w, x, y, z).
nlohmann::json pose_json(const Pose& pose) {
  return {pose.p.x(), pose.p.y(), pose.p.z(), pose.q.w(), pose.q.x(), pose.q.y(), pose.q.z()};
}
nlohmann::json vec_json(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

// One shape as the viewer reads it: body, kind, pose in the body frame and the geometry's numbers.
nlohmann::json shape_json(const Shape& shape, int body) {
  nlohmann::json j;
  j["body"] = body;
  j["kind"] = std::string(shape_kind_name(shape.kind()));
  j["pose"] = pose_json(shape.pose_BS);
  std::visit(
      [&j](const auto& g) {
        using G = std::decay_t<decltype(g)>;
        if constexpr (std::is_same_v<G, Plane>) {
          j["normal"] = vec_json(g.normal);
          j["offset"] = g.offset;
        } else if constexpr (std::is_same_v<G, Sphere>) {
          j["radius"] = g.radius;
        } else if constexpr (std::is_same_v<G, Box>) {
          j["half_extents"] = vec_json(g.half_extents);
        } else if constexpr (std::is_same_v<G, Capsule> || std::is_same_v<G, Cylinder>) {
          j["radius"] = g.radius;
          j["half_length"] = g.half_length;
        } else if constexpr (std::is_same_v<G, Ellipsoid>) {
          j["semi_axes"] = vec_json(g.semi_axes);
        } else if constexpr (std::is_same_v<G, Cone>) {
          j["radius"] = g.radius;
          j["height"] = g.height;
        } else if constexpr (std::is_same_v<G, ConvexHull>) {
          auto points = nlohmann::json::array();
          for (const Vec3& p : g.points) {
            points.push_back(p.x());
            points.push_back(p.y());
            points.push_back(p.z());
          }
          j["points"] = std::move(points);
        }
      },
      shape.geometry);
  return j;
}

// A point given on a body (`body` >= 0: from its centre of mass, body axes, as the joints keep
// their anchors) in the body FRAME's coordinates, which the page's poses carry; the world's
// points (body -1) stay as they are.
Vec3 body_frame_point(const Model& model, int body, const Vec3& r_from_com) {
  return body < 0 ? r_from_com
                  : Vec3(model.bodies[static_cast<std::size_t>(body)].com_B + r_from_com);
}

// The joints as the page draws them: each side's anchor and axis in its body's frame (the world's
// for body −1), so that the page carries them with the bodies' poses frame by frame.
nlohmann::json joints_json(const Model& model) {
  auto out = nlohmann::json::array();
  for (const Joint& j : model.joints) {
    nlohmann::json e;
    e["name"] = j.name;
    e["type"] = to_string(j.type);
    e["body1"] = j.body1;
    e["body2"] = j.body2;
    e["anchor1"] = vec_json(body_frame_point(model, j.body1, j.r1_B));
    e["anchor2"] = vec_json(body_frame_point(model, j.body2, j.r2_B));
    e["axis1"] = vec_json(j.F1_B.col(0));
    e["axis2"] = vec_json(j.F2_B.col(0));
    if (j.type == JointType::distance) e["length"] = j.length;
    out.push_back(std::move(e));
  }
  return out;
}

// The springs: each end in its body's frame (Spring keeps them so), or the world's anchor.
nlohmann::json springs_json(const Model& model) {
  auto out = nlohmann::json::array();
  for (const Spring& sp : model.springs) {
    out.push_back({{"body1", sp.body},
                   {"point1", vec_json(sp.point_B)},
                   {"body2", sp.body2},
                   {"point2", vec_json(sp.body2 < 0 ? sp.anchor_W : sp.point2_B)},
                   {"stiffness", sp.stiffness},
                   {"damping", sp.damping},
                   {"rest_length", sp.rest_length}});
  }
  return out;
}

// JSON text safe inside a <script> element: '<' only occurs inside JSON strings, where \u003c is
// the same character, so no "</script>" or "<!--" can end or alter the element.
std::string script_safe(const std::string& json_text) {
  std::string out;
  out.reserve(json_text.size());
  for (char c : json_text) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

// A <script> element holding data (not run by the browser: its type is not JavaScript).
void append_script(std::string& out, std::string_view id, std::string_view type,
                   std::string_view text) {
  out += "<script type=\"";
  out += type;
  out += "\" id=\"";
  out += id;
  out += "\">";
  out += text;
  out += "</script>\n";
}

// The page used when the viewer was not built: a message and the same data elements.
constexpr std::string_view kFallbackHead =
    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<title>coulomb replay (viewer not built)</title></head>\n<body>\n"
    "<p>The coulomb replay viewer was not built (node/npm were not found when coulomb was "
    "built), so this page cannot show the run in 3-D. The run's replay data is embedded below in "
    "&lt;script&gt; elements (JSON metadata, base64 little-endian Float32 arrays); see "
    "docs/replay.md.</p>\n";
constexpr std::string_view kFallbackTail = "</body></html>\n";

}  // namespace

namespace replay_detail {

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  // Whole 3-byte groups -> 4 characters.
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t(std::uint8_t(bytes[i])) << 16) |
                            (std::uint32_t(std::uint8_t(bytes[i + 1])) << 8) |
                            std::uint32_t(std::uint8_t(bytes[i + 2]));
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  // The 1 or 2 remaining bytes, padded with '='.
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t v = std::uint32_t(std::uint8_t(bytes[i])) << 16;
    if (rest == 2) v |= std::uint32_t(std::uint8_t(bytes[i + 1])) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string le_bytes(const std::vector<float>& values) { return le_bytes32(values); }

}  // namespace replay_detail

ReplayRecorder::ReplayRecorder(const Model& model, std::size_t max_frames)
    : ReplayRecorder(model, max_frames, kDefaultMaxBytes) {}

ReplayRecorder::ReplayRecorder(const Model& model, std::size_t max_frames, std::size_t max_bytes)
    : model_(model), max_frames_(max_frames), max_bytes_(max_bytes) {
  if (max_frames < 3) {
    throw std::invalid_argument("replay: max_frames must be at least 3 (got " +
                                std::to_string(max_frames) + ")");
  }
  // The moving bodies (free or driven) are the only ones whose poses are stored per frame.
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    if (!model.bodies[b].fixed || model.bodies[b].driven()) moving_.push_back(static_cast<int>(b));
  }
  kept_.reserve(max_frames);
}

bool ReplayRecorder::viewer_available() { return !replay_template().empty(); }

void ReplayRecorder::fill(Kept& kept, const ReplayFrame& frame, std::size_t index) const {
  kept.index = index;
  kept.time = frame.time;
  kept.kinetic = frame.kinetic;
  kept.potential = frame.potential;
  kept.dissipated = frame.dissipated;
  kept.driven_work = frame.driven_work;
  kept.force_work = frame.force_work;
  kept.damping = frame.damping;
  // Moving bodies' poses only (assign reuses the buffers' capacity).
  kept.moving.resize(moving_.size() * kReplayPoseStride);
  for (std::size_t m = 0; m < moving_.size(); ++m) {
    const float* src = frame.poses.data() + kReplayPoseStride * std::size_t(moving_[m]);
    std::copy(src, src + kReplayPoseStride, kept.moving.data() + kReplayPoseStride * m);
  }
  kept.contacts.assign(frame.contacts.begin(), frame.contacts.end());
}

void ReplayRecorder::halve() {
  // Keep the frames whose index is a multiple of 2k; recycle the others' buffers.
  std::size_t w = 0;
  kept_bytes_ = 0;
  for (std::size_t r = 0; r < kept_.size(); ++r) {
    if (kept_[r].index % (2 * stride_) == 0) {
      if (w != r) std::swap(kept_[w], kept_[r]);
      kept_bytes_ += kept_[w].bytes();
      ++w;
    }
  }
  for (std::size_t r = w; r < kept_.size(); ++r) pool_.push_back(std::move(kept_[r]));
  kept_.resize(w);
  stride_ *= 2;
}

void ReplayRecorder::add_frame(const ReplayFrame& frame) {
  // Validate the frame's shape and time order.
  const std::size_t nbodies = model_.bodies.size();
  if (frame.poses.size() != kReplayPoseStride * nbodies) {
    throw std::invalid_argument("replay: a frame needs 7 pose floats per body (" +
                                std::to_string(kReplayPoseStride * nbodies) + "), got " +
                                std::to_string(frame.poses.size()));
  }
  if (frame.contacts.size() % kReplayContactStride != 0) {
    throw std::invalid_argument("replay: frame contacts must hold 13 floats per contact, got " +
                                std::to_string(frame.contacts.size()) + " floats");
  }
  if (received_ > 0 && frame.time < last_.time) {
    throw std::invalid_argument("replay: frame times must not decrease");
  }
  // The first frame gives the poses of the fixed bodies.
  if (received_ == 0) base_poses_ = frame.poses;

  const std::size_t index = received_++;
  fill(last_, frame, index);
  if (index % stride_ != 0) return;

  // Make room (frames and bytes, one slot left for the held-aside last frame), then keep it if
  // it still falls on the stride.
  while (kept_.size() >= 2 &&
         (kept_.size() + 2 > max_frames_ || kept_bytes_ + 2 * last_.bytes() > max_bytes_)) {
    halve();
  }
  if (index % stride_ != 0) return;
  Kept slot;
  if (!pool_.empty()) {
    slot = std::move(pool_.back());
    pool_.pop_back();
  }
  slot.index = last_.index;
  slot.time = last_.time;
  slot.kinetic = last_.kinetic;
  slot.potential = last_.potential;
  slot.dissipated = last_.dissipated;
  slot.driven_work = last_.driven_work;
  slot.force_work = last_.force_work;
  slot.damping = last_.damping;
  slot.moving.assign(last_.moving.begin(), last_.moving.end());
  slot.contacts.assign(last_.contacts.begin(), last_.contacts.end());
  kept_bytes_ += slot.bytes();
  kept_.push_back(std::move(slot));
}

ReplayRecording ReplayRecorder::recording() const {
  auto frame = [](const Kept& k) {
    return ReplayRecording::Frame{k.index,      k.time,      k.moving,     k.contacts,
                                  k.kinetic,    k.potential, k.dissipated, k.driven_work,
                                  k.force_work, k.damping};
  };
  ReplayRecording out;
  out.base_poses = base_poses_;
  for (const Kept& k : kept_) out.kept.push_back(frame(k));
  out.last = frame(last_);
  out.received = received_;
  out.stride = stride_;
  return out;
}

void ReplayRecorder::restore(const ReplayRecording& rec) {
  // Sizes: the model's bodies, whole contacts, the recorder's bounds.
  const std::size_t nbodies = model_.bodies.size();
  auto fail = [](const std::string& what) {
    throw std::invalid_argument("replay: cannot restore the recording: " + what);
  };
  if (rec.received == 0 ? !rec.base_poses.empty() || !rec.kept.empty()
                        : rec.base_poses.size() != kReplayPoseStride * nbodies)
    fail("the first frame's poses do not match the model's bodies");
  if (rec.stride == 0 || (rec.stride & (rec.stride - 1)) != 0)
    fail("the stride is not a power of two");
  if (rec.kept.size() > max_frames_) fail("more frames than the recorder keeps");
  auto check = [&](const ReplayRecording::Frame& f) {
    if (f.moving.size() != kReplayPoseStride * moving_.size())
      fail("a frame's poses do not match the model's moving bodies");
    if (f.contacts.size() % kReplayContactStride != 0) fail("a frame holds a partial contact");
    if (f.index >= rec.received) fail("a frame's index is past the frames received");
  };
  // Kept frames: on the stride, in order; the last one is the latest received.
  for (std::size_t i = 0; i < rec.kept.size(); ++i) {
    check(rec.kept[i]);
    if (rec.kept[i].index % rec.stride != 0) fail("a kept frame is off the stride");
    if (i > 0 && !(rec.kept[i - 1].index < rec.kept[i].index)) fail("kept frames out of order");
  }
  if (rec.received > 0) {
    check(rec.last);
    if (rec.last.index != rec.received - 1) fail("the last frame is not the latest received");
  }
  // Take it.
  auto kept = [](const ReplayRecording::Frame& f) {
    Kept k;
    k.index = static_cast<std::size_t>(f.index);
    k.time = f.time;
    k.moving = f.moving;
    k.contacts = f.contacts;
    k.kinetic = f.kinetic;
    k.potential = f.potential;
    k.dissipated = f.dissipated;
    k.driven_work = f.driven_work;
    k.force_work = f.force_work;
    k.damping = f.damping;
    return k;
  };
  base_poses_ = rec.base_poses;
  kept_.clear();
  kept_bytes_ = 0;
  for (const auto& f : rec.kept) {
    kept_.push_back(kept(f));
    kept_bytes_ += kept_.back().bytes();
  }
  last_ = rec.received > 0 ? kept(rec.last) : Kept{};
  received_ = static_cast<std::size_t>(rec.received);
  stride_ = static_cast<std::size_t>(rec.stride);
}

std::size_t ReplayRecorder::frame_count() const {
  if (received_ == 0) return 0;
  const bool last_kept = !kept_.empty() && kept_.back().index == last_.index;
  return kept_.size() + (last_kept ? 0 : 1);
}

std::string ReplayRecorder::html() const {
  // The frames to write: the kept ones and the most recent one if the stride skipped it.
  std::vector<const Kept*> frames;
  for (const Kept& k : kept_) frames.push_back(&k);
  if (received_ > 0 && (kept_.empty() || kept_.back().index != last_.index)) {
    frames.push_back(&last_);
  }

  // Metadata (JSON): model, shapes, per-frame scalars.
  nlohmann::json meta;
  meta["format"] = "coulomb-replay";
  meta["version"] = 2;
  meta["name"] = model_.name;
  meta["gravity"] = vec_json(model_.gravity);
  meta["time_step"] = model_.time_step;
  meta["pose_stride"] = kReplayPoseStride;
  meta["contact_stride"] = kReplayContactStride;
  auto names = nlohmann::json::array();
  auto fixed = nlohmann::json::array();
  auto driven = nlohmann::json::array();
  for (const Body& body : model_.bodies) {
    names.push_back(body.name);
    fixed.push_back(body.fixed ? 1 : 0);
    driven.push_back(body.driven() ? 1 : 0);
  }
  meta["body_names"] = std::move(names);
  meta["body_fixed"] = std::move(fixed);
  meta["body_driven"] = std::move(driven);
  meta["joints"] = joints_json(model_);
  meta["springs"] = springs_json(model_);
  meta["moving"] = moving_;
  auto shapes = nlohmann::json::array();
  for (std::size_t s = 0; s < model_.shapes.size(); ++s) {
    const int body = s < model_.shape_body.size() ? model_.shape_body[s] : -1;
    shapes.push_back(shape_json(model_.shapes[s], body));
  }
  meta["shapes"] = std::move(shapes);
  meta["frames_received"] = received_;
  meta["stride"] = stride_;
  auto time = nlohmann::json::array(), kinetic = nlohmann::json::array(),
       potential = nlohmann::json::array(), dissipated = nlohmann::json::array();
  for (const Kept* f : frames) {
    time.push_back(f->time);
    kinetic.push_back(f->kinetic);
    potential.push_back(f->potential);
    dissipated.push_back(f->dissipated);
  }
  meta["frame_count"] = frames.size();
  meta["time"] = std::move(time);
  meta["kinetic"] = std::move(kinetic);
  meta["potential"] = std::move(potential);
  meta["dissipated"] = std::move(dissipated);
  // The actuation's works, for models that have some (the page's work plot).
  meta["actuated"] = model_.has_actuation();
  if (model_.has_actuation()) {
    auto driven_work = nlohmann::json::array(), force_work = nlohmann::json::array(),
         damping = nlohmann::json::array();
    for (const Kept* f : frames) {
      driven_work.push_back(f->driven_work);
      force_work.push_back(f->force_work);
      damping.push_back(f->damping);
    }
    meta["driven_work"] = std::move(driven_work);
    meta["force_work"] = std::move(force_work);
    meta["damping"] = std::move(damping);
  }

  // Binary arrays: moving poses (frame-major), contacts and their per-frame offsets.
  std::vector<float> poses;
  std::vector<float> contacts;
  std::vector<std::uint32_t> offsets{0};
  poses.reserve(frames.size() * moving_.size() * kReplayPoseStride);
  for (const Kept* f : frames) {
    poses.insert(poses.end(), f->moving.begin(), f->moving.end());
    contacts.insert(contacts.end(), f->contacts.begin(), f->contacts.end());
    offsets.push_back(static_cast<std::uint32_t>(contacts.size() / kReplayContactStride));
  }

  // The data elements, then the page around them.
  std::string data;
  append_script(data, "coulomb-replay-meta", "application/json",
                script_safe(meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
  append_script(data, "coulomb-replay-base-poses", "text/plain",
                replay_detail::base64(le_bytes32(base_poses_)));
  append_script(data, "coulomb-replay-poses", "text/plain",
                replay_detail::base64(le_bytes32(poses)));
  append_script(data, "coulomb-replay-contacts", "text/plain",
                replay_detail::base64(le_bytes32(contacts)));
  append_script(data, "coulomb-replay-contact-offsets", "text/plain",
                replay_detail::base64(le_bytes32(offsets)));

  const std::string_view page = replay_template();
  const std::size_t at = page.find(kDataMarker);
  std::string out;
  if (at == std::string_view::npos) {
    out.reserve(kFallbackHead.size() + data.size() + kFallbackTail.size());
    out += kFallbackHead;
    out += data;
    out += kFallbackTail;
  } else {
    out.reserve(page.size() + data.size());
    out += page.substr(0, at);
    out += data;
    out += page.substr(at + kDataMarker.size());
  }
  return out;
}

void ReplayRecorder::write(const std::string& path, const std::string& label) const {
  // Write a temporary file, then rename it over the target (readers never see a partial page);
  // a write error names the file and the reason and leaves no temporary file.
  const std::string tmp = path + ".tmp";
  try {
    RowFile file(tmp, label.empty() ? path : label);
    file.rows() = html();
    file.close();
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error(
        fmt::format("{}: cannot write: {}", label.empty() ? path : label, std::strerror(e)));
  }
}

}  // namespace coulomb
