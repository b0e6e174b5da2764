// Verdict printing shared by the standalone reproductions of the findings in
// Arrow C++ (one program per finding, linked against libarrow alone).
//
// Each program prints the spec sentence it rests on, what the spec requires
// and what Arrow C++ did, then exits:
//   0  "REPRODUCED Fn: ..."      the misbehaviour shows;
//   1  "NOT REPRODUCED Fn: ..."  Arrow C++ behaved as the spec asks (fixed);
//   2  setup error (something this program needs failed on the way).
#pragma once

#include <arrow/result.h>
#include <arrow/status.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace repro {

// The spec sentence (its clause and a quote) and what it asks of Arrow C++.
inline void PrintSpec(const char* clause, const char* quote, const char* requirement) {
  std::printf("spec: \"%s\": %s\n", clause, quote);
  std::printf("requires: %s\n", requirement);
}

// Ends the program at once, whatever threads Arrow C++ still runs: a stuck
// callback must not turn a verdict into a hang or a crash at exit.
[[noreturn]] inline void ExitNow(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(code);
}

[[noreturn]] inline void SetupError(const char* step, const arrow::Status& status) {
  std::printf("SETUP ERROR: %s: %s\n", step, status.ToString().c_str());
  ExitNow(2);
}

inline void SetupOk(const arrow::Status& status, const char* step) {
  if (!status.ok()) SetupError(step, status);
}

template <typename T>
T SetupValue(arrow::Result<T> result, const char* step) {
  if (!result.ok()) SetupError(step, result.status());
  return std::move(result).ValueUnsafe();
}

[[gnu::format(printf, 3, 0)]] inline int Verdict(const char* prefix, int finding, const char* format,
                                                 std::va_list args) {
  std::printf("%s F%d: ", prefix, finding);
  std::vprintf(format, args);
  std::printf("\n");
  std::fflush(stdout);
  return prefix[0] == 'R' ? 0 : 1;
}

// `return repro::Reproduced(n, ...)` from main: exit status 0.
[[gnu::format(printf, 2, 3)]] inline int Reproduced(int finding, const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  int code = Verdict("REPRODUCED", finding, format, args);
  va_end(args);
  return code;
}

// `return repro::NotReproduced(n, ...)` from main: exit status 1.
[[gnu::format(printf, 2, 3)]] inline int NotReproduced(int finding, const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  int code = Verdict("NOT REPRODUCED", finding, format, args);
  va_end(args);
  return code;
}

}  // namespace repro
