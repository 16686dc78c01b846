// The definition of a sweep: parameters (KEY=SPEC), their values (lists, ranges, seeded
// distributions), the variants (grid or zip) and each variant's scene document.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <coulomb/sweep/sweep.hpp>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string_view>

namespace coulomb::sweep {

namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

// A whole string as a finite double, or nothing.
bool parse_double(std::string_view s, double& x) {
  const std::string t = trim(s);
  if (t.empty()) return false;
  const char* first = t.data();
  if (*first == '+') ++first;
  const auto [end, ec] = std::from_chars(first, t.data() + t.size(), x);
  return ec == std::errc() && end == t.data() + t.size() && std::isfinite(x);
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  return parts;
}

// splitmix64: the seed of each parameter's generator, from the sweep's seed.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// A uniform double in [0, 1) from the top 53 bits of a draw: exact, the same on every platform.
double unit(std::mt19937_64& g) { return static_cast<double>(g() >> 11) * 0x1.0p-53; }

}  // namespace

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  (void)ec;
  return std::string(buf, end);
}

std::string Value::text() const { return is_word() ? word : format_number(number); }

Parameter parse_parameter(const std::string& option, std::size_t p, std::int64_t samples,
                          std::uint64_t seed) {
  const std::size_t eq = option.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument(fmt::format(
        "--set {}: expected KEY=SPEC (e.g. contacts[0].friction.mu=0.1:0.5:5)", option));
  Parameter par;
  par.key = trim(std::string_view(option).substr(0, eq));
  par.spec = trim(std::string_view(option).substr(eq + 1));
  const std::string& s = par.spec;
  auto fail = [&](const std::string& why) -> std::invalid_argument {
    return std::invalid_argument(fmt::format("--set {}: {}", option, why));
  };
  // A list [a, b, c]: numbers, or words.
  if (s.size() >= 2 && s.front() == '[' && s.back() == ']') {
    for (const std::string& item : split(std::string_view(s).substr(1, s.size() - 2), ',')) {
      if (item.empty()) throw fail("an empty list item");
      Value v;
      if (!parse_double(item, v.number)) {
        if (item.find_first_of("[]{}:#\"'") != std::string::npos)
          throw fail(fmt::format("'{}' is neither a finite number nor a plain word", item));
        v.word = item;
        v.number = std::numeric_limits<double>::quiet_NaN();
      }
      par.values.push_back(v);
    }
    return par;
  }
  // A distribution NAME(a,b), drawn `samples` times from the parameter's own generator.
  const std::size_t open = s.find('(');
  if (open != std::string::npos && s.back() == ')') {
    const std::string name = trim(std::string_view(s).substr(0, open));
    const std::vector<std::string> args =
        split(std::string_view(s).substr(open + 1, s.size() - open - 2), ',');
    double a = 0, b = 0;
    if (args.size() != 2 || !parse_double(args[0], a) || !parse_double(args[1], b))
      throw fail(name + "(a,b) takes two finite numbers");
    if (samples < 1) throw fail("a distribution needs --samples N (N >= 1)");
    std::mt19937_64 g(splitmix64(seed + 0x9E3779B97F4A7C15ULL * (p + 1)));
    for (std::int64_t i = 0; i < samples; ++i) {
      double x = 0;
      if (name == "uniform") {
        if (!(a < b)) throw fail("uniform(a,b) needs a < b");
        x = a + (b - a) * unit(g);
      } else if (name == "loguniform") {
        if (!(0 < a && a < b)) throw fail("loguniform(a,b) needs 0 < a < b");
        x = std::exp(std::log(a) + (std::log(b) - std::log(a)) * unit(g));
      } else if (name == "normal") {
        if (!(b >= 0)) throw fail("normal(m,s) needs s >= 0");
        const double u1 = unit(g);
        const double u2 = unit(g);
        x = a + b * std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * std::numbers::pi * u2);
      } else {
        throw fail(fmt::format("unknown distribution '{}' (uniform, loguniform, normal)", name));
      }
      par.values.push_back({x, {}});
    }
    return par;
  }
  // A range a:b:n, or a single number.
  const std::vector<std::string> parts = split(s, ':');
  if (parts.size() == 3) {
    double a = 0, b = 0, n = 0;
    if (!parse_double(parts[0], a) || !parse_double(parts[1], b) || !parse_double(parts[2], n) ||
        n < 2 || n != std::floor(n) || n > 1e7)
      throw fail("a range is a:b:n with finite a, b and an integer n >= 2");
    const auto count = static_cast<std::int64_t>(n);
    for (std::int64_t i = 0; i < count; ++i)
      par.values.push_back(
          {i == count - 1 ? b
                          : a + (b - a) * static_cast<double>(i) / static_cast<double>(count - 1),
           {}});
    return par;
  }
  Value v;
  if (parts.size() == 1 && parse_double(s, v.number)) {
    par.values.push_back(v);
    return par;
  }
  throw fail("SPEC is a list [a,b,c], a range a:b:n, uniform(a,b), loguniform(a,b) or normal(m,s)");
}

std::vector<Variant> variants(const SweepSpec& spec) {
  const std::size_t np = spec.parameters.size();
  if (np == 0) throw std::invalid_argument("sweep: no parameter (--set KEY=SPEC)");
  std::vector<Variant> list;
  if (spec.combine == Combine::zip) {
    const std::size_t n = spec.parameters[0].values.size();
    for (const Parameter& p : spec.parameters)
      if (p.values.size() != n)
        throw std::invalid_argument(fmt::format(
            "--combine zip: {} has {} values but {} has {}; zip pairs the i-th values of "
            "parameters of equal length",
            spec.parameters[0].key, n, p.key, p.values.size()));
    for (std::size_t i = 0; i < n; ++i)
      list.push_back({static_cast<std::int64_t>(i), std::vector<std::size_t>(np, i)});
    return list;
  }
  // The grid: the Cartesian product, the last parameter varying fastest.
  std::size_t total = 1;
  for (const Parameter& p : spec.parameters) {
    if (p.values.empty()) throw std::invalid_argument(fmt::format("--set {}: no value", p.key));
    if (total > 100000000 / p.values.size())
      throw std::invalid_argument("sweep: more than 1e8 variants");
    total *= p.values.size();
  }
  std::vector<std::size_t> index(np, 0);
  for (std::size_t id = 0; id < total; ++id) {
    list.push_back({static_cast<std::int64_t>(id), index});
    for (std::size_t k = np; k-- > 0;) {
      if (++index[k] < spec.parameters[k].values.size()) break;
      index[k] = 0;
    }
  }
  return list;
}

namespace {

// One step of a key path: a map key, a list index, or a list element by its `name`.
struct KeyStep {
  enum Kind { key, index, name } kind;
  std::string text;
  std::size_t number = 0;
};

std::vector<KeyStep> parse_key(const std::string& key) {
  std::vector<KeyStep> steps;
  std::size_t i = 0;
  auto bad = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("--set {}: {}", key, why));
  };
  while (i < key.size()) {
    if (key[i] == '[') {
      const std::size_t close = key.find(']', i);
      if (close == std::string::npos) throw bad("a '[' without ']'");
      const std::string inside = trim(std::string_view(key).substr(i + 1, close - i - 1));
      if (inside.empty()) throw bad("an empty [ ]");
      std::size_t n = 0;
      const auto [end, ec] = std::from_chars(inside.data(), inside.data() + inside.size(), n);
      if (ec == std::errc() && end == inside.data() + inside.size())
        steps.push_back({KeyStep::index, inside, n});
      else
        steps.push_back({KeyStep::name, inside, 0});
      i = close + 1;
      if (i < key.size() && key[i] == '.') ++i;
      continue;
    }
    const std::size_t stop = key.find_first_of(".[", i);
    const std::string word =
        key.substr(i, stop == std::string::npos ? std::string::npos : stop - i);
    if (word.empty()) throw bad("an empty key between dots");
    steps.push_back({KeyStep::key, word, 0});
    i = stop == std::string::npos ? key.size() : stop;
    if (i < key.size() && key[i] == '.') ++i;
  }
  if (steps.empty()) throw bad("an empty key");
  return steps;
}

// Writes `value` at the key path below `node` (map keys are created when missing: the scene
// loader then rejects an unknown one at its place; list elements must exist).
void set_at(YAML::Node node, const std::vector<KeyStep>& steps, std::size_t k,
            const std::string& value, const std::string& key) {
  const KeyStep& s = steps[k];
  const bool last = k + 1 == steps.size();
  auto fail = [&](const std::string& why) {
    return std::invalid_argument(fmt::format("key {}: {}", key, why));
  };
  if (s.kind == KeyStep::key) {
    if (!node.IsMap() && !node.IsNull())
      throw fail(fmt::format("'{}' is below a value that is not a map", s.text));
    if (last) {
      node[s.text] = value;
      return;
    }
    YAML::Node child = node[s.text];
    set_at(child, steps, k + 1, value, key);
    return;
  }
  if (!node.IsSequence())
    throw fail(fmt::format("[{}] is below a value that is not a list", s.text));
  if (s.kind == KeyStep::index) {
    if (s.number >= node.size())
      throw fail(fmt::format("[{}]: the list has {} elements", s.number, node.size()));
    if (last) {
      node[s.number] = value;
      return;
    }
    YAML::Node child = node[s.number];
    set_at(child, steps, k + 1, value, key);
    return;
  }
  for (YAML::Node element : node) {
    if (element.IsMap() && element["name"] && element["name"].IsScalar() &&
        element["name"].Scalar() == s.text) {
      if (last) throw fail(fmt::format("[{}] names an element, not a value", s.text));
      set_at(element, steps, k + 1, value, key);
      return;
    }
  }
  throw fail(fmt::format("no element named '{}' in the list", s.text));
}

}  // namespace

std::string variant_file(const SweepSpec& spec, const Variant& variant) {
  return fmt::format("{}[variant {}]", spec.scene_file, variant.id);
}

std::string variant_scene(const SweepSpec& spec, const Variant& variant) {
  YAML::Node root;
  try {
    root = YAML::Load(spec.scene_text);
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(fmt::format("{}: YAML syntax: {}", spec.scene_file, e.msg));
  }
  for (std::size_t p = 0; p < spec.parameters.size(); ++p) {
    const Parameter& par = spec.parameters[p];
    try {
      set_at(root, parse_key(par.key), 0, par.values[variant.index[p]].text(), par.key);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("variant {}: {}", variant.id, e.what()));
    }
  }
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

std::string run_name(std::int64_t id) { return fmt::format("{:06d}", id); }

}  // namespace coulomb::sweep
