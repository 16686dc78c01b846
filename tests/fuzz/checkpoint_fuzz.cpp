// Fuzz target: the checkpoint reader (decode_checkpoint, what `coulomb run --restart` reads) on
// arbitrary bytes. It must return a checkpoint or throw std::invalid_argument with a one-line
// message; anything else (a crash, a sanitizer report, a leak, another exception) is a finding.
//
// A mutated file almost never keeps its CRC-32, so the reader would stop at the checksum: each
// input is also decoded with its header's payload length and its CRC-32 set to match its bytes
// (from byte 40 on: the payload), which lets the fuzzer reach every field of the payload.
#include <coulomb/io/checkpoint.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void finding(const char* what, const char* message) {
  std::fprintf(stderr, "checkpoint_fuzz: %s: %s\n", what, message);
  std::abort();
}

void decode(std::string_view bytes) {
  try {
    (void)coulomb::decode_checkpoint(bytes, "fuzz.bin");
  } catch (const std::invalid_argument& e) {
    if (std::string_view(e.what()).find('\n') != std::string_view::npos)
      finding("a message of more than one line", e.what());
  } catch (const std::exception& e) {
    finding("undocumented exception", e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  decode(bytes);
  // The same bytes framed as a valid file: the signature, the input's version when this build
  // reads it (format 2 files still read) else the current one, the payload length, the input's
  // scene hash and payload, and their CRC-32.
  std::string framed(coulomb::kCheckpointMagic);
  const std::string_view payload = bytes.size() > 40 ? bytes.substr(40) : std::string_view{};
  auto put = [&framed](std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) framed.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  };
  std::uint32_t version = coulomb::kCheckpointVersion;
  if (bytes.size() >= 20) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v |= std::uint32_t(static_cast<std::uint8_t>(bytes[16 + i])) << (8 * i);
    if (v >= coulomb::kOldestCheckpointVersion && v <= coulomb::kCheckpointVersion) version = v;
  }
  put(version, 4);
  put(0, 4);
  put(payload.size(), 8);
  framed.append(bytes.size() >= 40 ? bytes.substr(32, 8) : std::string_view("\0\0\0\0\0\0\0\0", 8));
  framed.append(payload);
  put(coulomb::crc32(0, framed.data(), framed.size()), 4);
  decode(framed);
  return 0;
}
