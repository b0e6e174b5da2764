/* SHA-256 (harness/support/sha256.c) against the test vectors of FIPS
 * 180-4's examples (NIST's "SHA256.pdf") and coreutils' sha256sum, and the
 * manifest (harness/support/manifest.c) it writes and reads. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/manifest.h"
#include "support/sha256.h"
#include "unit_test_support.h"

START_TEST(test_standard_vectors) {
  char hex[ADC_SHA256_HEX_SIZE];
  adc_sha256_hex("", 0, hex);
  ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  adc_sha256_hex("abc", 3, hex);
  ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char* two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  adc_sha256_hex(two_blocks, strlen(two_blocks), hex);
  ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

/* One million 'a', fed in uneven pieces so that blocks straddle calls. */
START_TEST(test_million_a) {
  static char a[1000000];
  memset(a, 'a', sizeof(a));
  struct adc_sha256 hash;
  adc_sha256_init(&hash);
  size_t fed = 0;
  for (size_t piece = 1; fed < sizeof(a); piece = piece * 3 + 1) {
    size_t take = piece > sizeof(a) - fed ? sizeof(a) - fed : piece;
    adc_sha256_update(&hash, a + fed, take);
    fed += take;
  }
  uint8_t digest[ADC_SHA256_DIGEST_BYTES];
  adc_sha256_final(&hash, digest);
  char hex[ADC_SHA256_HEX_SIZE];
  for (int i = 0; i < ADC_SHA256_DIGEST_BYTES; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
  ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  adc_sha256_hex(a, sizeof(a), hex);
  ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

/* Every length around the padding's edges (55, 56, 64 bytes...) against
 * sha256sum on a file, and the file digest against it too. */
START_TEST(test_matches_sha256sum) {
  char dir[] = "/tmp/adc_sha256_XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof(path), "%s/data", dir);
  for (size_t length = 0; length < 200; length += length < 70 ? 1 : 37) {
    FILE* f = fopen(path, "wb");
    for (size_t i = 0; i < length; i++) fputc((int)((i * 7 + length) & 0xff), f);
    fclose(f);
    const char* argv[] = {"/usr/bin/sha256sum", path, NULL};
    struct run_result result = run_command(argv);
    ck_assert_int_eq(result.exit_code, 0);
    char hex[ADC_SHA256_HEX_SIZE];
    struct adc_error error;
    ck_assert_int_eq(adc_sha256_file_hex(path, hex, &error), 0);
    ck_assert_msg(strncmp(result.out, hex, 64) == 0, "length %zu: sha256sum %.64s, ours %s", length,
                  result.out, hex);
    run_result_free(&result);
  }
  unlink(path);
  rmdir(dir);
}
END_TEST

static void write_file(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

/* What adc_manifest_write writes, sha256sum -c accepts and
 * adc_manifest_read reads back. */
START_TEST(test_manifest_round_trip) {
  char dir[] = "/tmp/adc_manifest_XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof(path), "%s/a.txt", dir);
  write_file(path, "abc");
  snprintf(path, sizeof(path), "%s/b.json", dir);
  write_file(path, "{}\n");
  const char* names[] = {"a.txt", "b.json"};
  struct adc_error error;
  ck_assert_int_eq(adc_manifest_write(dir, names, 2, &error), 0);
  char command[512];
  snprintf(command, sizeof(command), "cd %s && sha256sum --strict -c SHA256SUMS", dir);
  const char* argv[] = {"/bin/sh", "-c", command, NULL};
  struct run_result result = run_command(argv);
  ck_assert_msg(result.exit_code == 0, "sha256sum -c: %s%s", result.out, result.err);
  run_result_free(&result);
  snprintf(path, sizeof(path), "%s/SHA256SUMS", dir);
  struct adc_manifest manifest;
  ck_assert_int_eq(adc_manifest_read(path, &manifest, &error), 0);
  ck_assert_uint_eq(manifest.count, 2);
  ck_assert_str_eq(manifest.entries[0].name, "a.txt");
  ck_assert_str_eq(manifest.entries[0].hex,
                   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  ck_assert_str_eq(manifest.entries[1].name, "b.json");
  ck_assert_int_eq(manifest.entries[1].line, 2);
  adc_manifest_free(&manifest);
  snprintf(command, sizeof(command), "rm -r %s", dir);
  ck_assert_int_eq(system(command), 0);
}
END_TEST

START_TEST(test_manifest_malformed) {
  static const char* const malformed[] = {
      "",                                                                               /* empty */
      "not a digest  report.json\n",                                                    /* no digest */
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad report.json\n", /* one space */
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  \n",           /* no name */
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  ../x\n",       /* a path */
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f2001  report.json\n",   /* short */
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a\n\n",        /* blank line */
  };
  char path[] = "/tmp/adc_manifest_bad_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
    write_file(path, malformed[i]);
    struct adc_manifest manifest;
    struct adc_error error;
    ck_assert_msg(adc_manifest_read(path, &manifest, &error) == -1, "accepted malformed manifest %zu", i);
    ck_assert_ptr_null(manifest.entries);
  }
  unlink(path);
}
END_TEST

int main(void) {
  Suite* suite = suite_create("sha256");
  TCase* tc = tcase_create("sha256");
  tcase_add_test(tc, test_standard_vectors);
  tcase_add_test(tc, test_million_a);
  tcase_add_test(tc, test_matches_sha256sum);
  tcase_add_test(tc, test_manifest_round_trip);
  tcase_add_test(tc, test_manifest_malformed);
  suite_add_tcase(suite, tc);
  return run_suite(suite);
}
