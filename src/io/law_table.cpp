#include <coulomb/io/law_table.hpp>

#include <coulomb/laws/contensou.hpp>
#include <coulomb/laws/contensou_law.hpp>
#include <coulomb/laws/hertz.hpp>
#include <coulomb/laws/law.hpp>
#include <coulomb/laws/one_line.hpp>
#include <coulomb/laws/patch.hpp>
#include <coulomb/laws/registry.hpp>
#include <coulomb/laws/stribeck.hpp>

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

namespace coulomb {

namespace {

// Strict number parsing: the whole text must be a finite number.
double parse_number(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double x = 0.0;
  try {
    x = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(x)) {
    throw std::invalid_argument(fmt::format("{}: expected a number, got '{}'", what, text));
  }
  return x;
}

// The arguments after the law name: --key value pairs, keys with '-' turned into '_'.
struct Args {
  std::map<std::string, std::string> values;
  std::map<std::string, bool> used;

  std::string take(const std::string& key, const std::string& fallback) {
    used[key] = true;
    auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
  bool has(const std::string& key) const { return values.count(key) != 0; }
  void finish() const {
    for (const auto& [k, v] : values) {
      if (!used.count(k)) throw std::invalid_argument(fmt::format("unknown option --{}", k));
    }
  }
};

Args parse_args(const std::vector<std::string>& args) {
  Args out;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0 || a.size() < 3) {
      throw std::invalid_argument(fmt::format("expected an option --key, got '{}'", a));
    }
    if (i + 1 >= args.size())
      throw std::invalid_argument(fmt::format("option {} needs a value", a));
    std::string key = a.substr(2);
    for (char& c : key) c = c == '-' ? '_' : c;
    out.values[key] = args[++i];
  }
  return out;
}

// A LawSpec of the remaining options (numbers as params, other text as options).
LawSpec spec_of(const std::string& law, Args& args,
                const std::map<std::string, std::string>& alias = {}) {
  LawSpec s;
  s.law = law;
  for (const auto& [k, v] : args.values) {
    if (args.used.count(k)) continue;
    args.used[k] = true;
    auto a = alias.find(k);
    const std::string key = a == alias.end() ? k : a->second;
    std::size_t n = 0;
    double x = 0.0;
    bool number = true;
    try {
      x = std::stod(v, &n);
    } catch (const std::exception&) {
      number = false;
    }
    if (number && n == v.size()) {
      s.params[key] = x;
    } else {
      s.options[key] = v;
    }
  }
  return s;
}

std::string num(double x) { return fmt::format("{:.17g}", x); }

}  // namespace

namespace {

// parse_samples, whose messages may quote the text as given (several lines).
std::vector<double> samples(const std::string& text) {
  std::vector<double> out;
  if (text.find(':') != std::string::npos) {
    // start:stop:step, stop included within round-off.
    const std::size_t c1 = text.find(':'), c2 = text.find(':', c1 + 1);
    if (c2 == std::string::npos || text.find(':', c2 + 1) != std::string::npos) {
      throw std::invalid_argument(fmt::format("range must be start:stop:step, got '{}'", text));
    }
    const double start = parse_number(text.substr(0, c1), "range start");
    const double stop = parse_number(text.substr(c1 + 1, c2 - c1 - 1), "range stop");
    const double step = parse_number(text.substr(c2 + 1), "range step");
    if (!(step > 0.0) || stop < start) {
      throw std::invalid_argument(
          fmt::format("range needs step > 0 and stop ≥ start, got '{}'", text));
    }
    const double count = std::floor((stop - start) / step + 1e-9);
    if (count > 1e7)
      throw std::invalid_argument(fmt::format("range has more than 1e7 samples: '{}'", text));
    for (long i = 0; i <= static_cast<long>(count); ++i)
      out.push_back(start + static_cast<double>(i) * step);
    return out;
  }
  // Comma list.
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    out.push_back(parse_number(text.substr(begin, end - begin), "sample"));
    begin = end + 1;
  }
  return out;
}

}  // namespace

// The messages quote the arguments as given, so one_line keeps each one line.
std::vector<double> parse_samples(const std::string& text) {
  try {
    return samples(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(one_line(e.what()));
  }
}

namespace {

// "--young-modulus" for the key young_modulus.
std::string option_name(std::string_view key) {
  std::string o = "--" + std::string(key);
  for (char& c : o)
    if (c == '_') c = '-';
  return o;
}

// The help entry of a normal or friction law tabulated by the generic path of tabulate_law,
// written from its registry row: a required key bare, a key with a default in brackets, a key
// that is otherwise derived (from other keys or the materials) in parentheses, then the sampled
// inputs and the columns. Adding such a law to the registry adds its line here.
std::string generated_help_line(const LawInfo& law) {
  std::string line = fmt::format("  {:<13}", law.name);
  std::size_t width = line.size();
  auto add = [&](const std::string& word) {
    if (width + 1 + word.size() > 100) {
      line += "\n               ";
      width = 15;
    }
    line += " " + word;
    width += 1 + word.size();
  };
  for (const LawKey& key : law.keys) {
    if (key.formulations == kNonsmooth) continue;  // not a force-law key
    const std::string o = option_name(key.key);
    if (!std::isnan(key.fallback)) {
      add("[" + o + "]");
    } else {
      add(key.default_text.starts_with("required") ? o : "(" + o + ")");
    }
  }
  if (law.key("young_modulus") != nullptr) add("(--radius)");  // R* of the E* route
  for (const LawOption& opt : law.options)
    add(fmt::format("[{} {}]", option_name(opt.key), opt.values_text(kCompliant)));
  if (law.section == LawSection::normal) {
    const bool rate = law.name != "hertz";
    add("--delta RANGE");
    if (rate) add("[--rate LIST]");
    add(rate ? "-> delta,rate,N" : "-> delta,N");
  } else {
    add("--v RANGE");
    add(law.name == "viscous" ? "-> v,F" : "-> v,mu");
  }
  return line + "\n";
}

}  // namespace

std::string law_table_help() {
  std::string out =
      "Laws (options are the scene-file keys with '-' for '_'; --key: required, [--key]: has a\n"
      "default, (--key): else derived from other keys or the materials, as docs/laws.md says):\n";
  // The generic friction and normal laws, from the registry; the others by hand below, because
  // tabulate_law samples them in their own way.
  for (const LawInfo& law : law_registry()) {
    const bool generic = (law.section == LawSection::friction && law.name != "elastic_stick" &&
                          law.name != "stribeck" && law.name != "no_slip") ||
                         (law.section == LawSection::normal && law.name != "signorini");
    if (generic) out += generated_help_line(law);
  }
  out +=
      R"(  stribeck      --mu-s --mu-k --stribeck-velocity (or --vs) [--exponent 2] --v RANGE -> v,mu
                (the coefficient curve μ(v); not tabulated: --viscous, --regularization, --form)
  rolling       --k [--regularization] [--form] [--normal 1] --omega RANGE   -> omega,M
  pivoting      --h [--regularization] [--form] [--normal 1] --omega RANGE   -> omega,M
  soft_finger   --radius --mu [--regularization] [--normal 1] --omega RANGE  -> omega,M
  contensou     --model ellipsoid|exact|pade11|pade22|generalized|quadrature --pressure hertz|uniform
                [model constants: --b --c --m0 --c1 --c3 --d --e --n --k --n-angle --n-chord]
                --eps RANGE                                                  -> eps,F,m (a = 1)
                --radius A [--mu 1] [--normal 1] [--omega 1] [--regularization 1e-4]
                [--kappa K --rolling W [--rolling-regularization 1e-3]] (rolling_resistance) --v RANGE
                                                                             -> v,Ft1,Ft2,Mn,Mt1,Mt2,power
  patch         --r-inner --r-outer [--theta pi] --mu --pressure P [--vx 0 --vy 0] --omega RANGE
                (Coulomb's law over the sector R1 <= r <= R2, |phi| <= theta, uniform P [Pa]:
                the brake pad)                                               -> omega,Ft1,Ft2,N,M1,M2,Mn,power
Not tabulated: signorini, no_slip (set-valued), elastic_stick (depends on its history).
RANGE is start:stop:step (stop included) or a comma list.
)";
  return out;
}

namespace {

// tabulate_law, whose messages may quote an argument as given (several lines).
std::string tabulate(const std::vector<std::string>& args) {
  if (args.empty()) throw std::invalid_argument("missing law name (coulomb law --help lists them)");
  const std::string& name = args[0];
  Args a = parse_args(args);
  std::string out;
  auto sampled = [&](const std::string& key) {
    if (!a.has(key))
      throw std::invalid_argument(fmt::format("{} needs --{} (a range or a list)", name, key));
    return parse_samples(a.take(key, ""));
  };

  // Friction and normal laws: any law of the section in the registry (not the set-valued
  // signorini and no_slip, which have no force as a function of the motion, nor elastic_stick,
  // whose force depends on its history).
  const LawInfo* friction = find_law(LawSection::friction, name);
  const LawInfo* normal = find_law(LawSection::normal, name);
  if (name == "signorini" || name == "no_slip")
    throw std::invalid_argument(fmt::format(
        "'{}' is set-valued (its impulse is what the contact problem finds): nothing to tabulate "
        "(docs/laws.md)",
        name));
  if (friction != nullptr && name != "elastic_stick" && name != "no_slip") {
    // Friction laws against slip speed: μ = ‖F‖/N at N = 1 (viscous: ‖F‖).
    const std::vector<double> v = sampled("v");
    if (name == "stribeck") {
      const StribeckLaw law(spec_of(name, a, {{"vs", "stribeck_velocity"}}));
      out = "v,mu\n";
      for (double x : v) out += fmt::format("{},{}\n", num(x), num(law.mu(x)));
      return out;
    }
    const auto law = make_friction_law(spec_of(name, a));
    out = name == "viscous" ? "v,F\n" : "v,mu\n";
    for (double x : v) {
      const TangentialResult r = law->evaluate({Vec2(x, 0.0), 1.0, {}}, FrictionMemory{});
      out += fmt::format("{},{}\n", num(x), num(-r.force[0]));
    }
    return out;
  }
  if (normal != nullptr && name != "signorini") {
    // Normal laws against penetration (and rate).
    const std::vector<double> delta = sampled("delta");
    const std::vector<double> rate =
        name == "hertz" ? std::vector<double>{0.0} : parse_samples(a.take("rate", "0"));
    const double radius = a.has("radius") ? parse_number(a.take("radius", ""), "--radius") : kInf;
    const auto law = make_normal_law(spec_of(name, a));
    const NormalGeometry g{radius};
    out = name == "hertz" ? "delta,N\n" : "delta,rate,N\n";
    for (double r : rate) {
      for (double d : delta) {
        const double n = law->evaluate(d, r, g).force;
        out += name == "hertz" ? fmt::format("{},{}\n", num(d), num(n))
                               : fmt::format("{},{},{}\n", num(d), num(r), num(n));
      }
    }
    return out;
  }
  if (name == "rolling" || name == "pivoting") {
    const std::vector<double> w = sampled("omega");
    const double normal = parse_number(a.take("normal", "1"), "--normal");
    out = "omega,M\n";
    if (name == "rolling") {
      const auto law = make_rolling_law(spec_of(name, a));
      for (double x : w)
        out += fmt::format("{},{}\n", num(x), num(law->evaluate(Vec2(x, 0), normal).moment[0]));
    } else {
      const auto law = make_pivoting_law(spec_of(name, a));
      for (double x : w)
        out += fmt::format("{},{}\n", num(x), num(law->evaluate(x, normal).moment));
    }
    return out;
  }
  if (name == "contensou") {
    // Through the compliant law (coulomb/laws/contensou_law.hpp), so the scene keys, the named
    // constants and their validation apply: --model, --pressure, --b, --c1, --n-angle, ...
    const bool curve = a.has("eps");
    if (curve == a.has("v")) {
      throw std::invalid_argument(
          "contensou needs either --eps (dimensionless F, m) or --v (vector form)");
    }
    const std::vector<double> x = sampled(curve ? "eps" : "v");
    const double omega = parse_number(a.take("omega", "1"), "--omega");
    const double normal = parse_number(a.take("normal", "1"), "--normal");
    const double mu = parse_number(a.take("mu", "1"), "--mu");
    const double rolling = parse_number(a.take("rolling", "0"), "--rolling");
    std::optional<LawSpec> rr;
    if (a.has("kappa")) {
      rr = LawSpec{
          "rolling_resistance", {{"kappa", parse_number(a.take("kappa", ""), "--kappa")}}, {}, {}};
      if (a.has("rolling_regularization")) {
        rr->params["regularization"] =
            parse_number(a.take("rolling_regularization", ""), "--rolling-regularization");
      }
    }
    LawSpec spec = spec_of(name, a);
    if (curve) {
      // a = 1, ω = 1, μN = 1, v = (ε, 0): ρ ≥ 1 is above any regularisation speed ≤ 1.
      if (spec.has("radius") || rr) {
        throw std::invalid_argument(
            "contensou --eps tabulates the dimensionless F, m (a = 1): no --radius or --kappa");
      }
      spec.params["radius"] = 1.0;
      const auto law = make_contensou_law(spec, 1.0);
      out = "eps,F,m\n";
      for (double e : x) {
        if (!(e >= 0.0)) throw std::invalid_argument(fmt::format("--eps must be ≥ 0, got {}", e));
        const PatchResult r = law->evaluate({Vec2(e, 0.0), 1.0, Vec2::Zero(), 1.0}, {});
        // 0.0 − x: no "-0" in the table at ε = 0.
        out += fmt::format("{},{},{}\n", num(e), num(0.0 - r.force.x()), num(0.0 - r.moment));
      }
      return out;
    }
    // Vector form: slip (v, 0), spin ω, rolling (ω_t, 0) about t1, normal force N.
    if (!spec.has("radius")) throw std::invalid_argument("contensou --v needs --radius (m)");
    const auto law = make_contensou_law(spec, mu, {}, {}, rr ? &*rr : nullptr);
    out = "v,Ft1,Ft2,Mn,Mt1,Mt2,power\n";
    for (double v : x) {
      const PatchResult r = law->evaluate({Vec2(v, 0.0), omega, Vec2(rolling, 0.0), normal}, {});
      out += fmt::format("{},{},{},{},{},{},{}\n", num(v), num(r.force.x()), num(r.force.y()),
                         num(r.moment), num(r.rolling_moment.x()), num(r.rolling_moment.y()),
                         num(r.friction_power + r.pivoting_power + r.rolling_power));
    }
    return out;
  }
  if (name == "soft_finger") {
    const std::vector<double> w = sampled("omega");
    const double normal = parse_number(a.take("normal", "1"), "--normal");
    const double mu = parse_number(a.take("mu", "nan"), "--mu");
    const auto law = make_soft_finger_law(spec_of(name, a), mu);
    out = "omega,M\n";
    for (double x : w) out += fmt::format("{},{}\n", num(x), num(law->evaluate(x, normal).moment));
    return out;
  }
  if (name == "patch") {
    // Coulomb's law over an annular sector with uniform pressure (the brake pad of the seed
    // textbook, example 10.3.16): resultants on (t1, t2, n) about the origin, per spin ω_n.
    const std::vector<double> w = sampled("omega");
    const double r1 = parse_number(a.take("r_inner", "0"), "--r-inner");
    const double r2 = parse_number(a.take("r_outer", "nan"), "--r-outer");
    const double theta = parse_number(a.take("theta", "3.141592653589793"), "--theta");
    const double mu = parse_number(a.take("mu", "nan"), "--mu");
    const double p = parse_number(a.take("pressure", "nan"), "--pressure");
    const double vx = parse_number(a.take("vx", "0"), "--vx");
    const double vy = parse_number(a.take("vy", "0"), "--vy");
    a.finish();
    if (!(mu >= 0.0))
      throw std::invalid_argument(fmt::format("patch --mu must be ≥ 0, got {}", mu));
    if (!(p >= 0.0))
      throw std::invalid_argument(fmt::format("patch --pressure (Pa) must be ≥ 0, got {}", p));
    if (!(theta > 0.0 && theta <= 3.141592653589793)) {
      throw std::invalid_argument(
          fmt::format("patch --theta (half angle, rad) must be in (0, π], got {}", theta));
    }
    const patch::AnnularSector sector = patch::AnnularSector::make(r1, r2, -theta, theta);
    const patch::PatchQuadrature q;
    out = "omega,Ft1,Ft2,N,M1,M2,Mn,power\n";
    for (double x : w) {
      const patch::Wrench r = q.sector(
          sector, [&](double, double) { return p; }, patch::RigidSlip{Vec2(vx, vy), x}, mu);
      out += fmt::format("{},{},{},{},{},{},{},{}\n", num(x), num(r.force.x()), num(r.force.y()),
                         num(r.force.z()), num(r.moment.x()), num(r.moment.y()), num(r.moment.z()),
                         num(r.power));
    }
    return out;
  }
  throw std::invalid_argument(fmt::format(
      "unknown law '{}' (friction: {}; normal: {}; rolling, pivoting, soft_finger, contensou, "
      "patch; coulomb law --help)",
      name, law_names(LawSection::friction), law_names(LawSection::normal)));
}

}  // namespace

std::string tabulate_law(const std::vector<std::string>& args) {
  try {
    return tabulate(args);
  } catch (const LawError& e) {
    throw LawError(e.key(), one_line(e.what()), e.mark());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(one_line(e.what()));
  }
}

}  // namespace coulomb
