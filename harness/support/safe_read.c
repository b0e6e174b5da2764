#include "support/safe_read.h"

#include "support/pages.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* Where process_vm_readv is refused (a seccomp filter, say): whether the
 * page holding `address` can be read, asked of write(), which reports an
 * unreadable source as EFAULT rather than a SIGSEGV. */
static int page_is_readable(const void* address) {
  static int probe[2] = {-1, -1};
  if (probe[0] < 0 && pipe(probe) != 0) return 0;
  if (write(probe[1], address, 1) != 1) return 0;
  char drained;
  return read(probe[0], &drained, 1) == 1;
}

/* process_vm_readv on this very process reports an unreadable page as a
 * short count rather than a SIGSEGV; remote pieces split at page boundaries
 * make the count stop exactly there. */
size_t adc_copy_readable(void* destination, const void* source, size_t size) {
  uintptr_t page = (uintptr_t)adc_page_size();
  struct iovec remote[16];
  int n_remote = 0;
  uintptr_t at = (uintptr_t)source;
  size_t left = size;
  while (left > 0 && n_remote < 16) {
    size_t piece = page - at % page;
    if (piece > left) piece = left;
    remote[n_remote++] = (struct iovec){(void*)at, piece};
    at += piece;
    left -= piece;
  }
  struct iovec local = {destination, size - left};
  ssize_t copied = process_vm_readv(getpid(), &local, 1, remote, (unsigned long)n_remote, 0);
  if (copied >= 0) return (size_t)copied;
  if (errno == EFAULT) return 0; /* not even the first byte */
  size_t readable = 0;
  for (int i = 0; i < n_remote && page_is_readable(remote[i].iov_base); i++) {
    memcpy((char*)destination + readable, remote[i].iov_base, remote[i].iov_len);
    readable += remote[i].iov_len;
  }
  return readable;
}
