/* tiny_frame's error messages.
 *
 * Every entry point returns NULL or a message the library owns, valid
 * until its next call (adc/plugin_abi.h): one buffer per thread is that.
 * Internal functions report a failure by writing it here and returning
 * -1 (or NULL), and the entry point returns tf_error_message(). */
#ifndef TF_ERROR_H
#define TF_ERROR_H

/* Writes the message (printf-style) and returns -1. */
int tf_fail(const char* format, ...) __attribute__((format(printf, 1, 2)));

/* The last message written on this thread. */
const char* tf_error_message(void);

#endif /* TF_ERROR_H */
