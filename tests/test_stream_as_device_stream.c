/* The shim's reading of a C stream as a device stream on the CPU
 * (harness/python/stream_as_device_stream.c), alone, over streams written
 * here: every call reaches the library's stream, only the CPU-only members
 * are added, the device stream is released only where the library marks
 * its own, and the library's stream moves with the device stream, so that
 * one whose callbacks keep its first address crashes (the move rule's
 * verdict, device_stream.move.relocatable). */
#include <check.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stream_as_device_stream.h"
#include "unit_test_support.h"

#define BATCHES 3

/* A library's stream of BATCHES empty int32 batches, then the end. */
struct library {
  int given;                              /* batches handed out */
  int releases;                           /* calls of its release */
  bool marks_release;                     /* its release sets release NULL */
  struct ArrowArrayStream* first_address; /* where its first call found it */
  bool uses_first_address;                /* a library that keeps that address */
};

static struct library* library_of(struct ArrowArrayStream* stream) {
  struct library* library = stream->private_data;
  if (library->first_address == NULL) library->first_address = stream;
  /* A library that is not relocatable reads itself where it first was. */
  return library->uses_first_address ? library->first_address->private_data : library;
}

static int get_schema(struct ArrowArrayStream* stream, struct ArrowSchema* out) {
  (void)library_of(stream);
  memset(out, 0, sizeof(*out));
  out->format = "i";
  out->release = NULL; /* never read by these tests */
  return 0;
}

static void release_batch(struct ArrowArray* array) {
  array->release = NULL;
}

static int get_next(struct ArrowArrayStream* stream, struct ArrowArray* out) {
  struct library* library = library_of(stream);
  memset(out, 0, sizeof(*out));
  if (library->given < BATCHES) {
    library->given++;
    out->release = release_batch;
  }
  return 0;
}

static const char* get_last_error(struct ArrowArrayStream* stream) {
  (void)library_of(stream);
  return "the library's last error";
}

static void release(struct ArrowArrayStream* stream) {
  struct library* library = stream->private_data;
  library->releases++;
  if (library->marks_release) stream->release = NULL;
}

static void make_library_stream(struct library* library, struct ArrowArrayStream* stream) {
  *stream = (struct ArrowArrayStream){get_schema, get_next, get_last_error, release, library};
}

START_TEST(every_call_is_the_librarys) {
  struct library library = {.marks_release = true};
  struct ArrowArrayStream stream;
  make_library_stream(&library, &stream);
  struct ArrowDeviceArrayStream device;
  ck_assert_int_eq(adc_python_stream_as_device_stream(&stream, &device), 0);
  ck_assert(stream.release == NULL); /* moved in */
  ck_assert_int_eq(device.device_type, ARROW_DEVICE_CPU);
  struct ArrowSchema schema;
  ck_assert_int_eq(device.get_schema(&device, &schema), 0);
  ck_assert_str_eq(schema.format, "i");
  ck_assert_str_eq(device.get_last_error(&device), "the library's last error");
  for (int batch = 0; batch < BATCHES; batch++) {
    struct ArrowDeviceArray array;
    memset(&array, 0xA5, sizeof(array));
    ck_assert_int_eq(device.get_next(&device, &array), 0);
    ck_assert(array.array.release == release_batch);
    /* What the interface defines of CPU-only data, and nothing else. */
    ck_assert_int_eq(array.device_type, ARROW_DEVICE_CPU);
    ck_assert_int_eq(array.device_id, -1);
    ck_assert_ptr_null(array.sync_event);
    for (size_t i = 0; i < sizeof(array.reserved) / sizeof(array.reserved[0]); i++) {
      ck_assert_int_eq(array.reserved[i], 0);
    }
    array.array.release(&array.array);
  }
  struct ArrowDeviceArray end;
  ck_assert_int_eq(device.get_next(&device, &end), 0);
  ck_assert(end.array.release == NULL);
  ck_assert_int_eq(library.given, BATCHES);
  device.release(&device);
  ck_assert(device.release == NULL);
  ck_assert_int_eq(library.releases, 1);
}
END_TEST

/* A release that does not mark its stream released is seen as such. */
START_TEST(released_only_where_the_library_marks) {
  struct library library = {.marks_release = false};
  struct ArrowArrayStream stream;
  make_library_stream(&library, &stream);
  struct ArrowDeviceArrayStream device;
  ck_assert_int_eq(adc_python_stream_as_device_stream(&stream, &device), 0);
  device.release(&device);
  ck_assert_int_eq(library.releases, 1);
  ck_assert(device.release != NULL);
  /* Released again, by a library that now marks it, it is gone. */
  library.marks_release = true;
  device.release(&device);
  ck_assert_int_eq(library.releases, 2);
  ck_assert(device.release == NULL);
}
END_TEST

START_TEST(null_callbacks_stay_null) {
  struct library library = {.marks_release = true};
  struct ArrowArrayStream stream;
  make_library_stream(&library, &stream);
  stream.get_last_error = NULL;
  struct ArrowDeviceArrayStream device;
  ck_assert_int_eq(adc_python_stream_as_device_stream(&stream, &device), 0);
  ck_assert(device.get_last_error == NULL);
  ck_assert(device.get_next != NULL);
  device.release(&device);
}
END_TEST

/* The exit status of a child that met SIGSEGV: its own handler's, or
 * AddressSanitizer's (which reports the signal and exits 1). */
#define CRASHED 70
#if defined(__SANITIZE_ADDRESS__)
#define CRASHED_UNDER_ASAN 1
#else
#define CRASHED_UNDER_ASAN CRASHED
#endif

static void on_segv(int signal) {
  (void)signal;
  _exit(CRASHED);
}

/* The device stream moved (a bitwise copy, the source marked released),
 * then read through the copy: the child's exit status. */
static int read_after_a_move(bool uses_first_address) {
  pid_t child = fork();
  if (child == 0) {
    signal(SIGSEGV, on_segv);
    struct library library = {.marks_release = true, .uses_first_address = uses_first_address};
    struct ArrowArrayStream stream;
    make_library_stream(&library, &stream);
    struct ArrowDeviceArrayStream device;
    if (adc_python_stream_as_device_stream(&stream, &device) != 0) _exit(2);
    /* The library's first call finds it on the shim's page. */
    struct ArrowDeviceArray array;
    if (device.get_next(&device, &array) != 0) _exit(3);
    array.array.release(&array.array);
    struct ArrowDeviceArrayStream moved = device;
    device.release = NULL;
    if (moved.get_next(&moved, &array) != 0) _exit(4);
    array.array.release(&array.array);
    moved.release(&moved);
    _exit(moved.release == NULL && library.given == 2 ? 0 : 5);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ck_assert_msg(WIFEXITED(status), "the child ended by signal %d",
                WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return WEXITSTATUS(status);
}

START_TEST(the_librarys_stream_moves_with_the_device_stream) {
  ck_assert_int_eq(read_after_a_move(false), 0);
}
END_TEST

/* A library that reads itself where it was first put crashes once the
 * device stream has moved: the page it left is inaccessible. */
START_TEST(a_library_keeping_its_first_address_crashes_after_a_move) {
  int status = read_after_a_move(true);
  ck_assert_msg(status == CRASHED || status == CRASHED_UNDER_ASAN, "the child exited %d, not crashed",
                status);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("stream_as_device_stream");
  TCase* each = tcase_create("each");
  tcase_add_test(each, every_call_is_the_librarys);
  tcase_add_test(each, released_only_where_the_library_marks);
  tcase_add_test(each, null_callbacks_stay_null);
  tcase_add_test(each, the_librarys_stream_moves_with_the_device_stream);
  tcase_add_test(each, a_library_keeping_its_first_address_crashes_after_a_move);
  suite_add_tcase(suite, each);
  return run_suite(suite);
}
