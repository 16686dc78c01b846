// Checkpoint files (coulomb/io/checkpoint.hpp; the format is in docs/reliability.md).
//
// One function, `fields`, lists the payload field by field; the encoder and the decoder both run
// it, so the order written is the order read by construction. To add a field: one line in
// `fields` (at the end of its group, under `if (io.version >= N)` so that older files still
// read), kCheckpointVersion + 1, a row in docs/reliability.md.
#include <coulomb/io/checkpoint.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

namespace coulomb {

namespace {

// Header: signature (16), version (4), reserved (4), payload length (8), scene hash (8).
constexpr std::size_t kHeaderBytes = 40;
constexpr std::size_t kCrcBytes = 4;

// Little-endian bytes of an unsigned integer.
template <class U>
void put_le(std::string& out, U v) {
  for (std::size_t i = 0; i < sizeof(U); ++i)
    out.push_back(static_cast<char>(static_cast<std::uint8_t>(v >> (8 * i))));
}

template <class U>
U get_le(const char* p) {
  U v = 0;
  for (std::size_t i = 0; i < sizeof(U); ++i)
    v |= static_cast<U>(static_cast<std::uint8_t>(p[i])) << (8 * i);
  return v;
}

// A name written into solver.csv or summary.json from a checkpoint: a status or method name
// (letters, digits, '_', '+', ';'), so a crafted file cannot add a column or a row.
bool plain_name(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '+' || c == ';';
  });
}

// The encoder: appends each field to a byte string.
class Encoder {
 public:
  explicit Encoder(std::string& out) : out_(out) {}
  static constexpr bool kDecoding = false;
  std::uint32_t version = kCheckpointVersion;  ///< the format written
  void u8(const std::uint8_t& v) { out_.push_back(static_cast<char>(v)); }
  void u32(const std::uint32_t& v) { put_le(out_, v); }
  void i32(const std::int32_t& v) { put_le(out_, static_cast<std::uint32_t>(v)); }
  void u64(const std::uint64_t& v) { put_le(out_, v); }
  void i64(const std::int64_t& v) { put_le(out_, static_cast<std::uint64_t>(v)); }
  void f64(const double& v) { put_le(out_, std::bit_cast<std::uint64_t>(v)); }
  void f32(const float& v) { put_le(out_, std::bit_cast<std::uint32_t>(v)); }
  void boolean(const bool& v) { out_.push_back(v ? '\1' : '\0'); }
  void str(const std::string& s) {
    put_le(out_, static_cast<std::uint64_t>(s.size()));
    out_ += s;
  }
  void vec3(const Vec3& v) {
    for (int i = 0; i < 3; ++i) f64(v[i]);
  }
  void quat(const Quat& q) {
    for (double c : {q.w(), q.x(), q.y(), q.z()}) f64(c);
  }
  template <class E>
  void enumeration(const E& e, int /*count*/) {
    out_.push_back(static_cast<char>(static_cast<std::uint8_t>(e)));
  }
  // A count, then each element.
  template <class V, class F>
  void seq(const V& v, std::size_t /*min_bytes*/, F&& each) {
    put_le(out_, static_cast<std::uint64_t>(v.size()));
    for (const auto& e : v) each(e);
  }

 private:
  std::string& out_;
};

// The decoder: reads each field from the payload, checking every read against its end.
class Decoder {
 public:
  Decoder(std::string_view bytes, std::size_t offset, const std::string& label,
          std::uint32_t format)
      : version(format), bytes_(bytes), pos_(offset), label_(label) {}
  static constexpr bool kDecoding = true;
  std::uint32_t version;  ///< the format read (kOldestCheckpointVersion to kCheckpointVersion)
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(fmt::format("{}: corrupted: {} (at byte {})", label_, what, pos_));
  }
  void u8(std::uint8_t& v) { v = static_cast<std::uint8_t>(*take(1)); }
  void u32(std::uint32_t& v) { v = get_le<std::uint32_t>(take(4)); }
  void i32(std::int32_t& v) { v = static_cast<std::int32_t>(get_le<std::uint32_t>(take(4))); }
  void u64(std::uint64_t& v) { v = get_le<std::uint64_t>(take(8)); }
  void i64(std::int64_t& v) { v = static_cast<std::int64_t>(get_le<std::uint64_t>(take(8))); }
  void f64(double& v) { v = std::bit_cast<double>(get_le<std::uint64_t>(take(8))); }
  void f32(float& v) { v = std::bit_cast<float>(get_le<std::uint32_t>(take(4))); }
  void boolean(bool& v) {
    const std::uint8_t b = static_cast<std::uint8_t>(*take(1));
    if (b > 1) fail(fmt::format("a flag holds {}, not 0 or 1", b));
    v = b == 1;
  }
  void str(std::string& s) {
    const std::uint64_t n = get_le<std::uint64_t>(take(8));
    if (n > left()) fail(fmt::format("a text of {} bytes where {} are left", n, left()));
    const char* p = take(static_cast<std::size_t>(n));
    s.assign(p, static_cast<std::size_t>(n));
  }
  void vec3(Vec3& v) {
    for (int i = 0; i < 3; ++i) f64(v[i]);
  }
  void quat(Quat& q) {
    double c[4];
    for (double& x : c) f64(x);
    q = Quat(c[0], c[1], c[2], c[3]);
  }
  template <class E>
  void enumeration(E& e, int count) {
    const std::uint8_t b = static_cast<std::uint8_t>(*take(1));
    if (b >= count) fail(fmt::format("an enumeration holds {}, past its {} values", b, count));
    e = static_cast<E>(b);
  }
  // A count, checked against the bytes left (each element takes at least `min_bytes`) before the
  // vector is sized from it, then each element.
  template <class V, class F>
  void seq(V& v, std::size_t min_bytes, F&& each) {
    const std::uint64_t n = get_le<std::uint64_t>(take(8));
    if (n > left() / std::max<std::size_t>(min_bytes, 1))
      fail(fmt::format("a count of {} where {} bytes are left", n, left()));
    v.clear();
    v.resize(static_cast<std::size_t>(n));
    for (auto& e : v) each(e);
  }
  [[nodiscard]] std::size_t left() const { return bytes_.size() - pos_; }

 private:
  const char* take(std::size_t n) {
    if (n > left()) fail(fmt::format("{} more bytes needed where {} are left", n, left()));
    const char* p = bytes_.data() + pos_;
    pos_ += n;
    return p;
  }
  std::string_view bytes_;
  std::size_t pos_;
  const std::string& label_;
};

// Bytes an element takes in the file (the least, for the check of a count against the bytes
// left): a contact memory (3 int32, 7 vectors, 2 flags), a replay frame without arrays.
constexpr std::size_t kContactBytes = 3 * 4 + 2 * 3 * 8 + 2 + 5 * 3 * 8;
constexpr std::size_t kFrameBytes = 8 + 8 + 8 + 8 + 3 * 8;

// One replay frame.
template <class Io, class F>
void frame_fields(Io& io, F& f) {
  io.u64(f.index);
  io.f64(f.time);
  io.seq(f.moving, 4, [&](auto& x) { io.f32(x); });
  io.seq(f.contacts, 4, [&](auto& x) { io.f32(x); });
  io.f64(f.kinetic);
  io.f64(f.potential);
  io.f64(f.dissipated);
  if (io.version >= 3) {
    io.f64(f.driven_work);
    io.f64(f.force_work);
    io.f64(f.damping);
  }
}

// The payload, field by field, in file order (docs/reliability.md has the same table). `C` is
// Checkpoint (decoding) or const Checkpoint (encoding).
template <class Io, class C>
void fields(Io& io, C& c) {
  // The State.
  auto& s = c.state;
  io.f64(s.time);
  io.f64(s.time_carry);
  io.i64(s.step);
  io.seq(s.x_WC, 24, [&](auto& v) { io.vec3(v); });
  io.seq(s.q_WB, 32, [&](auto& q) { io.quat(q); });
  io.seq(s.v_WC, 24, [&](auto& v) { io.vec3(v); });
  io.seq(s.w_W, 24, [&](auto& v) { io.vec3(v); });
  io.seq(s.contacts, kContactBytes, [&](auto& m) {
    io.i32(m.key.shape1);
    io.i32(m.key.shape2);
    io.u32(m.key.feature);
    io.vec3(m.impulse);
    io.vec3(m.moment);
    io.enumeration(m.status, 3);
    io.boolean(m.moving);
    io.vec3(m.n_W);
    io.vec3(m.t1_W);
    io.vec3(m.t2_W);
    io.vec3(m.r1_W);
    io.vec3(m.r2_W);
  });
  io.f64(s.dissipated);
  for (auto& d : s.dissipated_by_kind) io.f64(d);
  io.boolean(s.prefer_newton);
  // Format 3: the actuation's works (format 2 files come from scenes without actuation, which
  // the runs that wrote them refused: zero is their value).
  if (io.version >= 3) {
    io.f64(s.driven_work);
    io.f64(s.force_work);
    io.f64(s.damping);
    io.seq(s.driven_work_by_body, 8, [&](auto& w) { io.f64(w); });
  }
  // Format 4: sleeping islands (format 2 and 3 files come from runs without them: every body
  // awake, nothing slept).
  if (io.version >= 4) {
    io.seq(s.asleep, 4, [&](auto& a) { io.i32(a); });
    io.seq(s.still_time, 8, [&](auto& t) { io.f64(t); });
    io.f64(s.slept);
  }

  // The run as it started, and the driver's bookkeeping.
  io.f64(c.start_time);
  io.i64(c.start_step);
  io.f64(c.initial_total);
  io.i64(c.checkpoint_every);
  io.f64(c.next_output_time);
  io.boolean(c.frame_written);

  // Statistics for summary.json.
  io.i64(c.steps);
  auto& st = c.solver;
  io.i64(st.solves);
  io.i64(st.not_converged);
  io.f64(st.worst_error);
  io.f64(st.worst_error_time);
  io.f64(st.mean_error);
  io.i64(st.max_iterations);
  io.f64(st.mean_iterations);
  io.f64(st.first_not_converged_time);
  {
    // The map as (name, count) pairs.
    std::vector<std::pair<std::string, std::int64_t>> methods;
    if constexpr (!Io::kDecoding) methods.assign(st.methods.begin(), st.methods.end());
    io.seq(methods, 16, [&](auto& m) {
      io.str(m.first);
      io.i64(m.second);
    });
    if constexpr (Io::kDecoding) {
      for (const auto& [name, count] : methods) {
        if (!plain_name(name)) io.fail("a solver method's name is not a name");
        st.methods[name] = count;
      }
    }
  }
  io.i64(st.auto_switches);
  io.i64(st.fell_back);
  io.i64(st.cold_starts);
  io.i64(st.local_failures);
  io.i64(st.solves_with_local_failures);
  auto& ss = c.stages;
  io.i64(ss.corrected_steps);
  io.f64(ss.deepest_penetration);
  io.f64(ss.deepest_penetration_time);
  io.f64(ss.largest_left);
  io.i64(ss.rotation_failures);
  io.f64(ss.first_rotation_failure_time);
  io.i64(ss.activated);
  io.i64(ss.activation_steps);
  // Format 5: the points left out when the activation passes ran out (older files: none counted).
  if (io.version >= 5) {
    io.i64(ss.left_out);
    io.i64(ss.left_out_steps);
    io.f64(ss.deepest_left_out);
    io.f64(ss.deepest_left_out_time);
  }
  // Format 6: the steps whose position stage left overlaps above its tolerance (older files:
  // none counted).
  if (io.version >= 6) {
    io.i64(ss.unclosed_steps);
    io.f64(ss.largest_unclosed);
    io.f64(ss.largest_unclosed_time);
  }
  io.f64(c.wall_time_s);
  io.seq(c.stage_seconds, 16, [&](auto& p) {
    io.str(p.first);
    io.f64(p.second);
  });
  io.i64(c.checkpoints_written);
  io.f64(c.checkpoint_seconds);

  // The output files and the solver.csv aggregates.
  io.seq(c.files, 20, [&](auto& f) {
    io.str(f.first);
    io.u64(f.second.bytes);
    io.u32(f.second.crc);
  });
  auto& a = c.solver_interval;
  io.i64(a.steps);
  io.i64(a.solves);
  io.i64(a.not_converged);
  io.i64(a.total_iterations);
  io.i64(a.local_failures);
  io.i64(a.fell_back);
  io.i32(a.max_points);
  io.i32(a.max_active);
  io.i32(a.max_iterations);
  io.f64(a.max_error);
  io.str(a.worst_status);
  io.boolean(a.worst_converged);
  io.str(a.methods);

  // The replay's recorded frames.
  io.boolean(c.has_replay);
  if (c.has_replay) {
    auto& r = c.replay;
    io.u64(r.received);
    io.u64(r.stride);
    io.seq(r.base_poses, 4, [&](auto& x) { io.f32(x); });
    frame_fields(io, r.last);
    io.seq(r.kept, kFrameBytes, [&](auto& f) { frame_fields(io, f); });
  }
}

// What no run writes, found after a checksum that matched (a crafted file, or a bug).
void check_values(Decoder& d, const Checkpoint& c) {
  const State& s = c.state;
  const std::size_t n = s.x_WC.size();
  if (s.q_WB.size() != n || s.v_WC.size() != n || s.w_W.size() != n)
    d.fail("the state's arrays differ in length");
  if (!s.driven_work_by_body.empty() && s.driven_work_by_body.size() != n)
    d.fail("the driven bodies' works do not match the state's bodies");
  bool finite = std::isfinite(s.time) && std::isfinite(s.time_carry) && std::isfinite(s.dissipated);
  for (const double d : s.dissipated_by_kind) finite = finite && std::isfinite(d);
  for (const double x : {s.driven_work, s.force_work, s.damping})
    finite = finite && std::isfinite(x);
  for (const double x : s.driven_work_by_body) finite = finite && std::isfinite(x);
  if ((!s.asleep.empty() && s.asleep.size() != n) ||
      (!s.still_time.empty() && s.still_time.size() != n))
    d.fail("the sleeping islands do not match the state's bodies");
  for (const std::int32_t a : s.asleep)
    if (a < -1 || a >= static_cast<std::int64_t>(n)) d.fail("a sleeping island names no body");
  finite = finite && std::isfinite(s.slept);
  for (const double x : s.still_time) finite = finite && std::isfinite(x);
  for (std::size_t b = 0; b < n; ++b)
    finite = finite && s.x_WC[b].allFinite() && s.q_WB[b].coeffs().allFinite() &&
             s.v_WC[b].allFinite() && s.w_W[b].allFinite();
  for (const ContactMemory& m : s.contacts)
    finite = finite && m.impulse.allFinite() && m.moment.allFinite() && m.n_W.allFinite() &&
             m.t1_W.allFinite() && m.t2_W.allFinite() && m.r1_W.allFinite() && m.r2_W.allFinite();
  finite = finite && std::isfinite(c.start_time) && std::isfinite(c.initial_total) &&
           std::isfinite(c.next_output_time);
  if (!finite) d.fail("the state holds a value that is not finite");
  for (const Quat& q : s.q_WB)
    if (!(q.squaredNorm() > 0.0)) d.fail("an orientation is the zero quaternion");
  if (s.step < 0 || c.start_step < 0 || c.start_step > s.step || c.steps < 0 ||
      c.checkpoint_every < 0)
    d.fail("a negative or inconsistent step count");
  for (std::size_t k = 1; k < s.contacts.size(); ++k)
    if (!(s.contacts[k - 1].key < s.contacts[k].key)) d.fail("the contact memory is not sorted");
  if (!plain_name(c.solver_interval.worst_status) || !plain_name(c.solver_interval.methods))
    d.fail("a solver.csv name is not a name");
}

}  // namespace

std::uint64_t scene_hash(std::string_view source, const Model& model) {
  // FNV-1a, 64 bits, over the text then the settings (little-endian bytes).
  std::uint64_t h = 0xcbf29ce484222325ULL;
  auto add = [&h](std::string_view bytes) {
    for (const char ch : bytes) {
      h ^= static_cast<std::uint8_t>(ch);
      h *= 0x100000001b3ULL;
    }
  };
  add(source);
  std::string settings;
  put_le(settings, std::bit_cast<std::uint64_t>(model.time_step));
  put_le(settings, static_cast<std::uint64_t>(model.output.every));
  put_le(settings, std::bit_cast<std::uint64_t>(model.output.interval));
  settings.push_back(model.output.solver == SolverRows::every_step ? '\1' : '\0');
  add(settings);
  return h;
}

void encode_checkpoint(const Checkpoint& checkpoint, std::string& out) {
  // Header, with the payload length filled in once known.
  out.clear();
  out.append(kCheckpointMagic);
  put_le(out, kCheckpointVersion);
  put_le(out, std::uint32_t{0});
  put_le(out, std::uint64_t{0});
  put_le(out, checkpoint.scene_hash);
  Encoder encoder(out);
  fields(encoder, checkpoint);
  const std::uint64_t payload = out.size() - kHeaderBytes;
  for (std::size_t i = 0; i < 8; ++i)
    out[24 + i] = static_cast<char>(static_cast<std::uint8_t>(payload >> (8 * i)));
  put_le(out, crc32(0, out.data(), out.size()));
}

Checkpoint decode_checkpoint(std::string_view bytes, const std::string& label) {
  // The signature, the version, the length, the CRC: in that order, each one line.
  if (bytes.empty()) throw std::invalid_argument(fmt::format("{}: empty (0 bytes)", label));
  const bool short_magic = bytes.size() < kCheckpointMagic.size();
  if (bytes.substr(0, kCheckpointMagic.size()) !=
      kCheckpointMagic.substr(0, short_magic ? bytes.size() : kCheckpointMagic.size()))
    throw std::invalid_argument(fmt::format(
        "{}: not a coulomb checkpoint (it does not start with the checkpoint signature)", label));
  if (bytes.size() < kHeaderBytes + kCrcBytes)
    throw std::invalid_argument(fmt::format(
        "{}: truncated: {} bytes, fewer than a checkpoint's header holds", label, bytes.size()));
  const auto version = get_le<std::uint32_t>(bytes.data() + 16);
  if (version < kOldestCheckpointVersion || version > kCheckpointVersion)
    throw std::invalid_argument(fmt::format(
        "{}: a checkpoint of format version {}; this coulomb reads versions {} to {} (restart it "
        "with the coulomb that wrote it)",
        label, version, kOldestCheckpointVersion, kCheckpointVersion));
  const auto payload = get_le<std::uint64_t>(bytes.data() + 24);
  const std::uint64_t framing = kHeaderBytes + kCrcBytes;
  if (payload > bytes.size() - framing)
    throw std::invalid_argument(
        fmt::format("{}: truncated: {} bytes, its header announces a payload of {} bytes", label,
                    bytes.size(), payload));
  if (payload < bytes.size() - framing)
    throw std::invalid_argument(
        fmt::format("{}: corrupted: {} bytes, {} more than its header announces", label,
                    bytes.size(), bytes.size() - framing - payload));
  const std::size_t body = bytes.size() - kCrcBytes;
  const std::uint32_t stored = get_le<std::uint32_t>(bytes.data() + body);
  const std::uint32_t actual = crc32(0, bytes.data(), body);
  if (stored != actual)
    throw std::invalid_argument(
        fmt::format("{}: corrupted: its bytes give the CRC-32 {:08x}, the file records {:08x}",
                    label, actual, stored));

  // The payload.
  Checkpoint c;
  c.scene_hash = get_le<std::uint64_t>(bytes.data() + 32);
  Decoder decoder(bytes.substr(0, body), kHeaderBytes, label, version);
  fields(decoder, c);
  if (decoder.left() != 0)
    decoder.fail(fmt::format("{} bytes after the last field", decoder.left()));
  check_values(decoder, c);
  return c;
}

void write_checkpoint(const std::string& path, const std::string& label,
                      const Checkpoint& checkpoint, std::string& scratch) {
  encode_checkpoint(checkpoint, scratch);
  // FILE.tmp, written whole and synced, then renamed over FILE; on any error, no FILE.tmp.
  const std::string tmp = path + ".tmp";
  auto fail = [&](int fd) {
    const int e = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    throw std::runtime_error(fmt::format("{}: cannot write: {}", label, std::strerror(e)));
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail(-1);
  const char* p = scratch.data();
  std::size_t left = scratch.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(fd);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fdatasync(fd) != 0 && errno != EINVAL) fail(fd);
  if (::close(fd) != 0) fail(-1);
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail(-1);
}

Checkpoint read_checkpoint(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::invalid_argument(fmt::format("{}: a folder, not a checkpoint file", path));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::invalid_argument(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad())
    throw std::invalid_argument(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  return decode_checkpoint(bytes.str(), path);
}

}  // namespace coulomb
