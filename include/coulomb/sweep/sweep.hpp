#pragma once
/// @file
/// Parameter studies (`coulomb sweep`, `coulomb.sweep`): many variants of one scene, each run with
/// the usual run driver, one row each in a table (docs/sweeps.md).
///
/// A sweep is a scene, a list of parameters (a key path into the scene document and a SPEC of its
/// values), a way to combine them (grid: the Cartesian product, the last parameter varying
/// fastest; zip: the i-th value of every parameter) and metrics. Every variant is the scene
/// document with its values written at their keys, loaded and validated like a scene file. Its
/// run writes into DIR/runs/ID/ and its row (sweep_row) depends only on the files of that folder,
/// so the table is the same however and wherever the variants ran.
///
/// SPEC:
/// - a list `[a, b, c]` (numbers, or words for keys such as solver.name);
/// - a range `a:b:n`, n ≥ 2 values x_i = a + (b − a)·i/(n − 1), i = 0 … n − 1 (the last is b);
/// - a distribution `uniform(a,b)`, `loguniform(a,b)` (0 < a < b), `normal(m,s)` (s ≥ 0):
/// `--samples`
///   values drawn from std::mt19937_64 (whose output the C++ standard fixes) seeded with
///   splitmix64(seed + 0x9E3779B97F4A7C15·(p + 1)) for the parameter p (0-based). A draw w gives
///   u = (w >> 11)·2⁻⁵³ ∈ [0, 1); uniform a + (b − a)u; loguniform exp(ln a + (ln b − ln a)u);
///   normal m + s·sqrt(−2 ln(1 − u₁))·cos(2π u₂) (Box–Muller, two draws per value). The uniform
///   values are exact IEEE arithmetic on every platform; the other two also use the C library's
///   exp, log, sqrt and cos (glibc gives the same bits on every x86-64 and arm64 machine).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace coulomb::sweep {

/// One value of a parameter: a number, or a word (then `number` is NaN and `word` holds it).
struct Value {
  double number = 0.0;
  std::string word;
  [[nodiscard]] bool is_word() const { return !word.empty(); }
  /// The text written into the scene and the table: the shortest round-trip form of a number.
  [[nodiscard]] std::string text() const;
};

/// A parameter of the sweep: `--set KEY=SPEC`.
struct Parameter {
  std::string key;   ///< e.g. "contacts[0].friction.mu", "bodies[top].angular_velocity[2]"
  std::string spec;  ///< as given
  std::vector<Value> values;
};

/// A user metric: `--metric NAME=EXPR` (the language: docs/sweeps.md, "Metrics").
struct Metric {
  std::string name;
  std::string expression;
};

enum class Combine { grid, zip };

/// The definition of a sweep: everything its table depends on.
struct SweepSpec {
  std::string scene_text;  ///< the scene document as read
  std::string scene_file;  ///< its name in messages (the path, or "builtin:NAME")
  std::vector<Parameter> parameters;
  Combine combine = Combine::grid;
  std::int64_t samples = 0;  ///< values drawn for each distribution (required when one is given)
  std::uint64_t seed = 0;
  std::vector<Metric> metrics;
  bool summary_only = false;    ///< keep only summary.json in each run folder
  double checkpoint_every = 0;  ///< [s] simulated time between checkpoints (0: none)
  /// Asked before every step of every run (RunOptions::stop): a non-empty answer stops the run in
  /// progress (its checkpoint kept for a rerun) and the sweep. Not part of the definition.
  std::function<std::string()> stop;
};

/// A variant: its id (0-based, the row order) and the index of each parameter's value.
struct Variant {
  std::int64_t id = 0;
  std::vector<std::size_t> index;  ///< (parameters)
};

/// Parses `KEY=SPEC` into a Parameter with its values (distributions drawn with `samples` values
/// from `seed`, as the parameter number `p`). Throws std::invalid_argument naming the option.
[[nodiscard]] Parameter parse_parameter(const std::string& option, std::size_t p,
                                        std::int64_t samples, std::uint64_t seed);
/// Parses `NAME=EXPR` and checks the expression's syntax. Throws std::invalid_argument.
[[nodiscard]] Metric parse_metric(const std::string& option);

/// The variants of the sweep in id order. Throws std::invalid_argument for zip over parameters of
/// different lengths, or no parameter.
[[nodiscard]] std::vector<Variant> variants(const SweepSpec& spec);

/// The scene text of a variant: the document with each value written at its key (YAML).
/// Throws std::invalid_argument naming the variant and the key when a key does not lead into the
/// document (no such list element, no body of that name, a key under a scalar).
[[nodiscard]] std::string variant_scene(const SweepSpec& spec, const Variant& variant);

/// The name of a variant's scene in messages: "FILE[variant ID]".
[[nodiscard]] std::string variant_file(const SweepSpec& spec, const Variant& variant);

/// Loads and checks every variant (scene, its laws, the metrics' body names) before anything
/// runs. Throws std::invalid_argument with one line: "variant ID (KEY=VALUE, ...): REASON", where
/// REASON is the scene loader's FILE[variant ID]:LINE:COL: error: ... line for a scene error.
void validate(const SweepSpec& spec);

/// "000042": the folder name of a variant under DIR/runs/.
[[nodiscard]] std::string run_name(std::int64_t id);

/// The header line of sweep.csv (without newline):
/// id,status,message,PARAMS...,FIGURES...,METRICS...
[[nodiscard]] std::string table_header(const SweepSpec& spec);

/// Runs one variant into DIR/runs/ID (restarting from its checkpoint when an interrupted run left
/// one, skipping the run when its summary.json is complete) and returns its row (without newline).
/// A failure of the variant (bad scene, non-finite state, I/O) is written into the row's status
/// and message: this never throws for the variant's own errors.
[[nodiscard]] std::string run_variant(const SweepSpec& spec, const Variant& variant,
                                      const std::string& dir);

/// The row of a variant whose folder DIR/runs/ID is complete: its figures and metrics read from
/// its files. Exposed for tests.
[[nodiscard]] std::string table_row(const SweepSpec& spec, const Variant& variant,
                                    const std::string& dir, const std::string& status,
                                    const std::string& message);

/// The fingerprint of a sweep's definition, written into DIR/sweep.json: a rerun into the same
/// folder must have the same (otherwise its rows would mix two sweeps).
[[nodiscard]] std::string definition_json(const SweepSpec& spec);

/// Prepares DIR for the sweep: creates DIR/runs and DIR/sweep.json, or checks that an existing
/// DIR/sweep.json holds the same definition (std::invalid_argument otherwise).
void prepare_directory(const SweepSpec& spec, const std::string& dir);

/// Writes DIR/sweep.csv from the rows (in id order), through a temporary file and a rename.
void write_table(const SweepSpec& spec, const std::string& dir,
                 const std::vector<std::string>& rows);

/// Whether a row's status is other than `completed`.
[[nodiscard]] bool row_failed(const std::string& row);

/// Progress on stderr: "sweep: 12/64 variants (1 failed), 20.1 s, ETA 87 s".
class Progress {
 public:
  explicit Progress(std::int64_t total, bool enabled);
  void done(bool failed);

 private:
  std::int64_t total_;
  std::int64_t done_ = 0;
  std::int64_t failed_ = 0;
  bool enabled_;
  double start_;
};

/// Runs the variants listed on `threads` threads (≥ 1), each taking the next id; returns the rows
/// indexed by variant id (an empty row: a variant stopped by `spec.stop`; the others then do not
/// start). `on_done(id, row)` is called after each variant (under a lock). An error of the sweep
/// itself (a row file that cannot be written) stops it and is rethrown once the threads end.
[[nodiscard]] std::vector<std::string> run_local(
    const SweepSpec& spec, const std::vector<Variant>& list, const std::string& dir, int threads,
    const std::function<void(std::int64_t, const std::string&)>& on_done);

/// Evaluates a metric expression over the run folder `run_dir` (trajectory.csv, energy.csv,
/// summary.json). Returns NaN for a condition never met; throws std::invalid_argument for an
/// expression that does not evaluate (unknown body or column, a series where a number is due).
[[nodiscard]] double evaluate_metric(const std::string& expression, const std::string& run_dir);

/// Formats a double in the shortest form that reads back to the same bits ("nan", "inf", "-inf").
[[nodiscard]] std::string format_number(double x);

}  // namespace coulomb::sweep
