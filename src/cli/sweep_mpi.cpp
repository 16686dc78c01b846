// `coulomb sweep` under mpirun: dynamic load balancing over the ranks (docs/sweeps.md, "MPI").
//
// Rank 0 validates the sweep and prepares DIR (the other ranks wait for its answer), then hands out
// variant ids one at a time to whichever rank asks and gathers the rows; it also runs variants
// itself on a second thread that takes ids from the same counter, so n ranks run n variants at
// once. Only rank 0's main thread calls MPI (MPI_THREAD_FUNNELED). A worker's request carries the
// row of the variant it finished (8 bytes: the id, then the row's text); the answer is the next
// id, or −1: no more. Every rank writes its runs into DIR/runs/ID (a shared file system), and
// rank 0 alone writes sweep.csv.
#include <mpi.h>

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include "cli/sweep_command.hpp"

namespace coulomb::cli {

namespace {

constexpr int kTagResult = 1;  // worker → rank 0: finished id (or −1 first) and its row
constexpr int kTagNext = 2;    // rank 0 → worker: the next id, −1 to stop
constexpr std::int64_t kInterrupted = -2;  // a worker's run was stopped by a signal

void send_result(std::int64_t id, const std::string& row) {
  std::string msg(sizeof id, '\0');
  std::memcpy(msg.data(), &id, sizeof id);
  msg += row;
  MPI_Send(msg.data(), static_cast<int>(msg.size()), MPI_CHAR, 0, kTagResult, MPI_COMM_WORLD);
}

}  // namespace

int run_sweep_mpi(const sweep::SweepSpec& spec, const std::string& dir, bool quiet) {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::vector<sweep::Variant> list = sweep::variants(spec);
  const auto total = static_cast<std::int64_t>(list.size());

  // Rank 0 checks every variant and prepares DIR; one answer for all (0: go, else the status).
  int status = 0;
  std::string error;
  if (rank == 0) {
    try {
      sweep::validate(spec);
      sweep::prepare_directory(spec, dir);
    } catch (const std::exception& e) {
      error = e.what();
      status = 2;
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (status != 0) {
    if (rank == 0) fmt::print(stderr, "error: {}\n", error);
    MPI_Finalize();
    return status;
  }

  if (rank != 0) {
    // A worker: ask, run, answer with the row, until told to stop.
    std::int64_t done = -1;
    std::string row;
    for (;;) {
      send_result(done, row);
      std::int64_t next = -1;
      MPI_Recv(&next, 1, MPI_INT64_T, 0, kTagNext, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (next < 0) break;
      try {
        row = sweep::run_variant(spec, list[static_cast<std::size_t>(next)], dir);
      } catch (const std::exception& e) {
        // An error of the sweep itself (a row file not written): the job cannot go on.
        fmt::print(stderr, "error: rank {}: {}\n", rank, e.what());
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      done = row.empty() ? kInterrupted : next;
    }
    MPI_Finalize();
    return 0;
  }

  // Rank 0: the counter of ids handed out, shared with its own worker thread.
  std::mutex lock;
  std::int64_t next_id = 0;
  bool stopped = false;
  std::vector<std::string> rows(list.size());
  std::int64_t received = 0;
  sweep::Progress progress(total, !quiet);
  auto take = [&]() -> std::int64_t {
    const std::lock_guard<std::mutex> guard(lock);
    return stopped || next_id >= total ? -1 : next_id++;
  };
  auto record = [&](std::int64_t id, std::string row) {
    const std::lock_guard<std::mutex> guard(lock);
    if (id == kInterrupted || row.empty()) {
      stopped = true;
      return;
    }
    progress.done(sweep::row_failed(row));
    rows[static_cast<std::size_t>(id)] = std::move(row);
    ++received;
  };
  std::string local_error;
  std::thread local([&] {
    for (std::int64_t id = take(); id >= 0; id = take()) {
      std::string row;
      try {
        row = sweep::run_variant(spec, list[static_cast<std::size_t>(id)], dir);
      } catch (const std::exception& e) {
        // An error of the sweep itself (a row file not written): no more ids, then exit 1.
        const std::lock_guard<std::mutex> guard(lock);
        local_error = e.what();
        stopped = true;
        break;
      }
      const std::int64_t done = row.empty() ? kInterrupted : id;
      record(done, std::move(row));
    }
  });
  // Serve the workers until each was told to stop.
  int active = size - 1;
  while (active > 0) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &flag, &st);
    if (!flag) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    int bytes = 0;
    MPI_Get_count(&st, MPI_CHAR, &bytes);
    std::string msg(static_cast<std::size_t>(bytes), '\0');
    MPI_Recv(msg.data(), bytes, MPI_CHAR, st.MPI_SOURCE, kTagResult, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    std::int64_t id = -1;
    std::memcpy(&id, msg.data(), sizeof id);
    if (id != -1) record(id, msg.substr(sizeof id));
    std::int64_t next = take();
    MPI_Send(&next, 1, MPI_INT64_T, st.MPI_SOURCE, kTagNext, MPI_COMM_WORLD);
    if (next < 0) --active;
  }
  local.join();
  MPI_Finalize();
  if (!local_error.empty()) {
    fmt::print(stderr, "error: rank 0: {}\n", local_error);
    return 1;
  }
  if (stopped || received != total) {
    fmt::print(stderr,
               "coulomb: sweep interrupted; rerun the same command to go on ({} keeps the "
               "finished variants)\n",
               dir);
    return 130;
  }
  sweep::write_table(spec, dir, rows);
  if (!quiet) {
    std::int64_t failed = 0;
    for (const std::string& r : rows) failed += sweep::row_failed(r) ? 1 : 0;
    fmt::print("sweep: {} variants on {} ranks, {} not completed; table {}/sweep.csv\n", total,
               size, failed, dir);
  }
  return 0;
}

}  // namespace coulomb::cli
