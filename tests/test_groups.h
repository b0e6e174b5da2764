/* Test groups with a precondition: tests that need something a machine may
 * lack (a device, an OpenCL platform of a kind).  A group whose
 * precondition does not hold is not run, and says so ("not run: GROUP:
 * why"): its tests are not registered, so that Check counts none of them
 * as passed.  A program run with nothing to run exits EXIT_NOT_RUN, which
 * ctest reads as a skip (SKIP_RETURN_CODE), so that a ctest entry per
 * group shows a missing device as skipped, never as passed. */
#ifndef ADC_TEST_GROUPS_H
#define ADC_TEST_GROUPS_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>

#include "device/device.h"

/* What a test program exits with when it ran nothing: ctest's
 * SKIP_RETURN_CODE. */
#define EXIT_NOT_RUN 77

struct test_group {
  const char* name; /* the argument that selects it */
  /* NULL where the group can run here, else why not, into `why` (of
   * `size`).  It runs in a child process of its own, so that what it
   * starts (a GPU runtime, an OpenCL platform, environment variables)
   * stays out of the process whose tests Check forks.  NULL: none. */
  const char* (*unmet)(int arg, char* why, size_t size);
  void (*add)(TCase* tcase, int arg); /* registers its tests; NULL: `test` alone */
  int arg;                            /* passed to both */
  int timeout_seconds;                /* of each test; 0: Check's default */
  const TTest* test;                  /* a group of one test, where `add` is NULL */
};

/* Runs the groups the arguments name (every group when none does; an
 * argument naming no group is bad input: exit 2) whose precondition holds,
 * as one Check suite; says "not run: ..." of the others.  Returns the
 * process's exit status: EXIT_NOT_RUN when no group could run. */
int run_test_groups(const char* suite_name, const struct test_group* groups, size_t n_groups, int argc,
                    char** argv);

/* The precondition of a group that needs device `adc_device_at(index)`:
 * it opens here (the device's own reason where not: "no cuda device
 * (cudaGetDeviceCount: ...)"). */
const char* device_unmet(int index, char* why, size_t size);

#endif /* ADC_TEST_GROUPS_H */
