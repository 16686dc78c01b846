#pragma once
// The metric language's syntax tree (private to src/sweep; the language: metrics.cpp).
#include <set>
#include <string>
#include <vector>

namespace coulomb::sweep {

struct MetricNode {
  enum Kind { constant, ref, negate, binary, call } kind = constant;
  double number = 0.0;  ///< constant: its value
  std::string name;     ///< ref: the reference; call: the function
  char op = 0;          ///< binary: + - * / < > l (<=) g (>=)
  std::vector<MetricNode> args;
};

/// Parses an expression; std::invalid_argument names the column of a syntax error.
MetricNode parse_expression(const std::string& text);

/// The body names an expression refers to (BODY.FIELD).
std::set<std::string> metric_bodies(const std::string& text);

}  // namespace coulomb::sweep
