// Fuzz target: the scene reader on arbitrary bytes. load_scene_text (then require_runnable, what
// `coulomb run` checks next) must return a scene or throw SceneError, whose message is one line;
// anything else (a crash, a sanitizer report, a leak, another exception) is a finding.
#include <coulomb/scene/scene.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const coulomb::Scene scene = coulomb::load_scene_text(text, "fuzz.yaml");
    coulomb::require_runnable(scene);
  } catch (const coulomb::SceneError& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) {
      std::fprintf(stderr, "scene_fuzz: a SceneError of more than one line: %s\n", e.what());
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scene_fuzz: undocumented exception: %s\n", e.what());
    std::abort();
  }
  return 0;
}
