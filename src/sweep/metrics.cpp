// The metric language of `coulomb sweep --metric NAME=EXPR` (docs/sweeps.md, "Metrics"):
// arithmetic over the output time series of a run folder, reduced to one number.
//
//   expr  := sum [('<' | '<=' | '>' | '>=') sum]      a comparison gives a 0/1 series
//   sum   := prod {('+' | '-') prod}
//   prod  := unary {('*' | '/') unary}
//   unary := '-' unary | atom
//   atom  := NUMBER | '(' expr ')' | FUNC '(' expr ')' | REF
//   REF   := 't' | BODY '.' FIELD | 'energy.' COLUMN | 'summary.' KEY{'.' KEY}
//
// Series are sampled at the output times of trajectory.csv; energy.csv has the same rows.
// FUNC: final, initial, max, min, mean (series → number), first_time, last_time (the first or
// last output time where a comparison holds; NaN if never), abs, sqrt (element-wise).
#include "sweep/metrics.hpp"

#include <coulomb/sweep/sweep.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

namespace coulomb::sweep {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::set<std::string> kReductions = {"final", "initial", "max", "min", "mean"};
const std::set<std::string> kTimes = {"first_time", "last_time"};
const std::set<std::string> kElementwise = {"abs", "sqrt"};
const std::vector<std::string> kBodyFields = {"x",  "y",     "z",    "qw",     "qx",     "qy",
                                              "qz", "vx",    "vy",   "vz",     "wx",     "wy",
                                              "wz", "speed", "spin", "axis_x", "axis_y", "axis_z"};

class Parser {
 public:
  Parser(std::string text, std::string whole) : s_(std::move(text)), whole_(std::move(whole)) {}

  MetricNode parse() {
    MetricNode n = comparison();
    skip();
    if (i_ != s_.size()) fail(fmt::format("unexpected '{}'", s_.substr(i_)));
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::invalid_argument(fmt::format("metric '{}': {} (at column {})", whole_, why, i_ + 1));
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(std::string_view tok) {
    skip();
    if (s_.compare(i_, tok.size(), tok) == 0) {
      i_ += tok.size();
      return true;
    }
    return false;
  }
  MetricNode binary(char op, MetricNode a, MetricNode b) {
    MetricNode n;
    n.kind = MetricNode::binary;
    n.op = op;
    n.args = {std::move(a), std::move(b)};
    return n;
  }
  MetricNode comparison() {
    MetricNode a = sum();
    for (const auto& [tok, op] : std::vector<std::pair<std::string, char>>{
             {"<=", 'l'}, {">=", 'g'}, {"<", '<'}, {">", '>'}}) {
      if (eat(tok)) return binary(op, std::move(a), sum());
    }
    return a;
  }
  MetricNode sum() {
    MetricNode a = product();
    for (;;) {
      if (eat("+"))
        a = binary('+', std::move(a), product());
      else if (eat("-"))
        a = binary('-', std::move(a), product());
      else
        return a;
    }
  }
  MetricNode product() {
    MetricNode a = unary();
    for (;;) {
      if (eat("*"))
        a = binary('*', std::move(a), unary());
      else if (eat("/"))
        a = binary('/', std::move(a), unary());
      else
        return a;
    }
  }
  MetricNode unary() {
    if (eat("-")) {
      MetricNode n;
      n.kind = MetricNode::negate;
      n.args = {unary()};
      return n;
    }
    return atom();
  }
  MetricNode atom() {
    skip();
    if (i_ >= s_.size()) fail("an expression ends too early");
    if (eat("(")) {
      MetricNode n = comparison();
      if (!eat(")")) fail("a missing ')'");
      return n;
    }
    const char c = s_[i_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      MetricNode n;
      n.kind = MetricNode::constant;
      const auto [end, ec] = std::from_chars(s_.data() + i_, s_.data() + s_.size(), n.number);
      if (ec != std::errc()) fail("a bad number");
      i_ = static_cast<std::size_t>(end - s_.data());
      return n;
    }
    std::size_t j = i_;
    while (j < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[j])) || s_[j] == '_' || s_[j] == '.'))
      ++j;
    const std::string name = s_.substr(i_, j - i_);
    if (name.empty()) fail(fmt::format("unexpected '{}'", s_.substr(i_)));
    i_ = j;
    if (eat("(")) {
      if (!kReductions.count(name) && !kTimes.count(name) && !kElementwise.count(name))
        fail(
            fmt::format("unknown function '{}' (final, initial, max, min, mean, first_time, "
                        "last_time, abs, sqrt)",
                        name));
      MetricNode n;
      n.kind = MetricNode::call;
      n.name = name;
      n.args = {comparison()};
      if (!eat(")")) fail("a missing ')'");
      return n;
    }
    MetricNode n;
    n.kind = MetricNode::ref;
    n.name = name;
    if (name == "t") return n;
    const std::size_t dot = name.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == name.size())
      fail(fmt::format("'{}' is not t, BODY.FIELD, energy.COLUMN or summary.KEY", name));
    if (name.compare(0, dot, "summary") != 0 && name.compare(0, dot, "energy") != 0) {
      const std::string field = name.substr(dot + 1);
      if (std::find(kBodyFields.begin(), kBodyFields.end(), field) == kBodyFields.end())
        fail(
            fmt::format("'{}': no body field '{}' (x y z qw qx qy qz vx vy vz wx wy wz speed spin "
                        "axis_x axis_y axis_z)",
                        name, field));
    }
    return n;
  }

  std::string s_;
  std::string whole_;
  std::size_t i_ = 0;
};

// A value: a number, or a series over the output times.
struct Val {
  bool series = false;
  std::vector<double> v;
};

// The columns of a CSV file with a header row, as numbers (a text column is skipped, except that
// `text_column` keeps its words).
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  std::vector<std::string> words;
};

Csv read_csv(const std::string& path, int text_column) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(fmt::format("cannot read {}", path));
  Csv csv;
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument(fmt::format("{} is empty", path));
  std::stringstream hs(line);
  for (std::string h; std::getline(hs, h, ',');) csv.header.push_back(h);
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::size_t start = 0;
    int col = 0;
    for (std::size_t i = 0; i <= line.size(); ++i) {
      if (i < line.size() && line[i] != ',') continue;
      const std::string_view cell(line.data() + start, i - start);
      if (col == text_column) {
        csv.words.emplace_back(cell);
        row.push_back(kNaN);
      } else {
        double x = kNaN;
        std::from_chars(cell.data(), cell.data() + cell.size(), x);
        row.push_back(x);
      }
      start = i + 1;
      ++col;
    }
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

class Evaluator {
 public:
  Evaluator(std::string dir, std::string whole) : dir_(std::move(dir)), whole_(std::move(whole)) {}

  Val eval(const MetricNode& n) {
    switch (n.kind) {
      case MetricNode::constant:
        return {false, {n.number}};
      case MetricNode::negate: {
        Val a = eval(n.args[0]);
        for (double& x : a.v) x = -x;
        return a;
      }
      case MetricNode::binary:
        return combine(n.op, eval(n.args[0]), eval(n.args[1]));
      case MetricNode::call:
        return call(n.name, eval(n.args[0]));
      case MetricNode::ref:
        return ref(n.name);
    }
    return {};
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::invalid_argument(fmt::format("metric '{}': {}", whole_, why));
  }

  Val combine(char op, const Val& a, const Val& b) {
    if (a.series && b.series && a.v.size() != b.v.size()) fail("two series of different lengths");
    Val r;
    r.series = a.series || b.series;
    const std::size_t n = std::max(a.v.size(), b.v.size());
    r.v.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double x = a.v[a.series ? i : 0];
      const double y = b.v[b.series ? i : 0];
      switch (op) {
        case '+':
          r.v[i] = x + y;
          break;
        case '-':
          r.v[i] = x - y;
          break;
        case '*':
          r.v[i] = x * y;
          break;
        case '/':
          r.v[i] = x / y;
          break;
        case '<':
          r.v[i] = x < y;
          break;
        case '>':
          r.v[i] = x > y;
          break;
        case 'l':
          r.v[i] = x <= y;
          break;
        case 'g':
          r.v[i] = x >= y;
          break;
        default:
          fail("an unknown operator");
      }
    }
    return r;
  }

  Val call(const std::string& f, Val a) {
    if (kElementwise.count(f)) {
      for (double& x : a.v) x = f == "abs" ? std::fabs(x) : std::sqrt(x);
      return a;
    }
    if (!a.series) fail(fmt::format("{}() takes a series, not a number", f));
    if (a.v.empty()) return {false, {kNaN}};
    if (kTimes.count(f)) {
      const std::vector<double>& t = times();
      double found = kNaN;
      for (std::size_t i = 0; i < a.v.size(); ++i) {
        if (a.v[i] != 0.0) {
          found = t[i];
          if (f == "first_time") break;
        }
      }
      return {false, {found}};
    }
    double r = a.v[0];
    if (f == "final") r = a.v.back();
    if (f == "max")
      for (double x : a.v) r = std::max(r, x);
    if (f == "min")
      for (double x : a.v) r = std::min(r, x);
    if (f == "mean") {
      // Summed in order: the same bits however the run was made.
      double s = 0;
      for (double x : a.v) s += x;
      r = s / static_cast<double>(a.v.size());
    }
    return {false, {r}};
  }

  void load_trajectory() {
    if (loaded_trajectory_) return;
    loaded_trajectory_ = true;
    const Csv csv = read_csv(dir_ + "/trajectory.csv", 1);
    for (std::size_t r = 0; r < csv.rows.size(); ++r) {
      const std::string& body = csv.words[r];
      if (bodies_.empty() || !bodies_.count(body)) order_.push_back(body);
      auto& cols = bodies_[body];
      cols.resize(csv.header.size());
      for (std::size_t c = 0; c < csv.header.size() && c < csv.rows[r].size(); ++c)
        cols[c].push_back(csv.rows[r][c]);
      if (body == order_.front()) times_.push_back(csv.rows[r][0]);
    }
    header_ = csv.header;
  }

  const std::vector<double>& times() {
    load_trajectory();
    return times_;
  }

  std::vector<double> column(const std::string& body, const std::string& name) {
    const auto& cols = bodies_.at(body);
    const auto it = std::find(header_.begin(), header_.end(), name);
    return cols[static_cast<std::size_t>(it - header_.begin())];
  }

  Val ref(const std::string& name) {
    if (name == "t") return {true, times()};
    const std::size_t dot = name.find('.');
    const std::string head = name.substr(0, dot);
    const std::string rest = name.substr(dot + 1);
    if (head == "summary") return summary(rest);
    if (head == "energy") {
      const Csv csv = read_csv(dir_ + "/energy.csv", -1);
      const auto it = std::find(csv.header.begin(), csv.header.end(), rest);
      if (it == csv.header.end() || rest == "time")
        fail(fmt::format("energy.csv has no column '{}'", rest));
      Val r{true, {}};
      for (const auto& row : csv.rows)
        r.v.push_back(row[static_cast<std::size_t>(it - csv.header.begin())]);
      if (r.v.size() != times().size())
        fail(fmt::format("energy.csv has {} rows, trajectory.csv {} output times", r.v.size(),
                         times().size()));
      return r;
    }
    load_trajectory();
    if (!bodies_.count(head)) fail(fmt::format("no body '{}' in trajectory.csv", head));
    Val r{true, {}};
    if (rest == "speed" || rest == "spin") {
      const char* p = rest == "speed" ? "v" : "w";
      const auto x = column(head, std::string(p) + "x");
      const auto y = column(head, std::string(p) + "y");
      const auto z = column(head, std::string(p) + "z");
      for (std::size_t i = 0; i < x.size(); ++i)
        r.v.push_back(std::sqrt(x[i] * x[i] + y[i] * y[i] + z[i] * z[i]));
      return r;
    }
    if (rest.rfind("axis_", 0) == 0) {
      // The body's z axis in world coordinates: the third column of R(q).
      const auto w = column(head, "qw"), x = column(head, "qx"), y = column(head, "qy"),
                 z = column(head, "qz");
      for (std::size_t i = 0; i < w.size(); ++i) {
        const double n2 = w[i] * w[i] + x[i] * x[i] + y[i] * y[i] + z[i] * z[i];
        const double s = 2.0 / n2;
        r.v.push_back(rest == "axis_x"   ? s * (x[i] * z[i] + w[i] * y[i])
                      : rest == "axis_y" ? s * (y[i] * z[i] - w[i] * x[i])
                                         : 1.0 - s * (x[i] * x[i] + y[i] * y[i]));
      }
      return r;
    }
    r.v = column(head, rest);
    return r;
  }

  Val summary(const std::string& path) {
    if (summary_.is_null()) {
      std::ifstream in(dir_ + "/summary.json");
      if (!in) fail("cannot read summary.json");
      summary_ = nlohmann::json::parse(in);
    }
    const nlohmann::json* j = &summary_;
    std::stringstream ps(path);
    for (std::string k; std::getline(ps, k, '.');) {
      if (!j->is_object() || !j->contains(k)) fail(fmt::format("summary.json has no '{}'", path));
      j = &(*j)[k];
    }
    if (j->is_boolean()) return {false, {j->get<bool>() ? 1.0 : 0.0}};
    if (!j->is_number()) fail(fmt::format("summary.{} is not a number", path));
    return {false, {j->get<double>()}};
  }

  std::string dir_;
  std::string whole_;
  bool loaded_trajectory_ = false;
  std::map<std::string, std::vector<std::vector<double>>> bodies_;  // body -> columns
  std::vector<std::string> order_;
  std::vector<std::string> header_;
  std::vector<double> times_;
  nlohmann::json summary_;
};

void collect_bodies(const MetricNode& n, std::set<std::string>& out) {
  if (n.kind == MetricNode::ref && n.name != "t") {
    const std::string head = n.name.substr(0, n.name.find('.'));
    if (head != "summary" && head != "energy") out.insert(head);
  }
  for (const MetricNode& a : n.args) collect_bodies(a, out);
}

}  // namespace

MetricNode parse_expression(const std::string& text) { return Parser(text, text).parse(); }

std::set<std::string> metric_bodies(const std::string& text) {
  std::set<std::string> out;
  collect_bodies(parse_expression(text), out);
  return out;
}

Metric parse_metric(const std::string& option) {
  const std::size_t eq = option.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument(
        fmt::format("--metric {}: expected NAME=EXPR (e.g. axis=final(top.axis_z))", option));
  Metric m{option.substr(0, eq), option.substr(eq + 1)};
  for (char c : m.name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      throw std::invalid_argument(
          fmt::format("--metric {}: NAME is letters, digits and '_' (a column name)", option));
  (void)parse_expression(m.expression);
  return m;
}

double evaluate_metric(const std::string& expression, const std::string& run_dir) {
  const MetricNode tree = parse_expression(expression);
  Evaluator ev(run_dir, expression);
  const Val v = ev.eval(tree);
  if (v.series)
    throw std::invalid_argument(fmt::format(
        "metric '{}': is a series; reduce it with final, initial, max, min, mean or first_time",
        expression));
  return v.v.at(0);
}

}  // namespace coulomb::sweep
