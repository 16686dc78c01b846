#pragma once
// The table of tests/data/fclib/README.md (file, contacts, reference error), parsed for the tests.

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace coulomb::testing {

struct FclibEntry {
  std::string file;
  int contacts = 0;
  double reference_error = 0.0;
};

inline std::string fclib_dir() { return std::string(COULOMB_SOURCE_DIR) + "/tests/data/fclib"; }

// Rows "| name.hdf5 | nc | nnz | mu | SOLVER, error X |" of the README table.
inline std::vector<FclibEntry> fclib_entries() {
  std::vector<FclibEntry> out;
  std::ifstream in(fclib_dir() + "/README.md");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0 || line.find(".hdf5") == std::string::npos) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) {
      const auto b = cell.find_first_not_of(' ');
      const auto e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    if (cells.size() < 5) continue;
    FclibEntry entry;
    entry.file = cells[0];
    entry.contacts = std::stoi(cells[1]);
    const auto pos = cells[4].find("error ");
    if (pos == std::string::npos) continue;
    entry.reference_error = std::stod(cells[4].substr(pos + 6));
    out.push_back(entry);
  }
  return out;
}

inline std::string fclib_test_name(const std::string& file) {
  std::string name;
  for (const char c : file.substr(0, file.size() - 5)) {
    name += (std::isalnum(static_cast<unsigned char>(c)) != 0) ? c : '_';
  }
  return name;
}

}  // namespace coulomb::testing
