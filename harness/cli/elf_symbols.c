#include "cli/elf_symbols.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adc/plugin_abi.h"

static const char* const markers[] = {"_CDataIntegration_", "_CDeviceIntegration_", ADC_ROUND_TRIP_INFIX};

static char* read_file(const char* path, size_t* size, char* error, size_t error_size) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    snprintf(error, error_size, "%s", strerror(errno));
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long length = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* bytes = length > 0 ? malloc((size_t)length) : NULL;
  if (bytes == NULL || fread(bytes, 1, (size_t)length, f) != (size_t)length) {
    snprintf(error, error_size, "cannot read the file");
    free(bytes);
    fclose(f);
    return NULL;
  }
  fclose(f);
  *size = (size_t)length;
  return bytes;
}

static void add_prefix(const char* name, char* prefixes, size_t size, int* count) {
  for (size_t m = 0; m < sizeof(markers) / sizeof(markers[0]); m++) {
    const char* at = strstr(name, markers[m]);
    if (at == NULL || at == name) continue;
    char prefix[128];
    size_t length = (size_t)(at - name);
    if (length >= sizeof(prefix)) return;
    memcpy(prefix, name, length);
    prefix[length] = '\0';
    /* Already listed? */
    const char* p = prefixes;
    while (*p) {
      size_t n = strcspn(p, ",");
      if (n == length && strncmp(p, prefix, n) == 0) return;
      p += n + (p[n] == ',');
    }
    size_t used = strlen(prefixes);
    snprintf(prefixes + used, size - used, "%s%s", used ? "," : "", prefix);
    (*count)++;
    return;
  }
}

int adc_elf_find_prefixes(const char* path, char* prefixes, size_t prefixes_size, char* error,
                          size_t error_size) {
  size_t size = 0;
  char* bytes = read_file(path, &size, error, error_size);
  if (bytes == NULL) return -1;
  prefixes[0] = '\0';
  int count = -1;
  const Elf64_Ehdr* header = (const Elf64_Ehdr*)bytes;
  if (size < sizeof(*header) || memcmp(header->e_ident, ELFMAG, SELFMAG) != 0) {
    snprintf(error, error_size, "not an ELF file");
    goto done;
  }
  if (header->e_ident[EI_CLASS] != ELFCLASS64) {
    snprintf(error, error_size, "not a 64-bit ELF file");
    goto done;
  }
  if (header->e_shoff == 0 || header->e_shoff + (size_t)header->e_shnum * sizeof(Elf64_Shdr) > size) {
    snprintf(error, error_size, "ELF section table out of bounds");
    goto done;
  }
  const Elf64_Shdr* sections = (const Elf64_Shdr*)(bytes + header->e_shoff);
  count = 0;
  for (int s = 0; s < header->e_shnum; s++) {
    if (sections[s].sh_type != SHT_DYNSYM || sections[s].sh_link >= header->e_shnum) continue;
    const Elf64_Shdr* strings = &sections[sections[s].sh_link];
    if (sections[s].sh_offset + sections[s].sh_size > size || strings->sh_offset + strings->sh_size > size) {
      continue;
    }
    const Elf64_Sym* symbols = (const Elf64_Sym*)(bytes + sections[s].sh_offset);
    size_t n = sections[s].sh_size / sizeof(Elf64_Sym);
    for (size_t i = 0; i < n; i++) {
      if (symbols[i].st_shndx == SHN_UNDEF || symbols[i].st_name >= strings->sh_size) continue;
      const char* name = bytes + strings->sh_offset + symbols[i].st_name;
      if (memchr(name, '\0', strings->sh_size - symbols[i].st_name) == NULL) continue;
      add_prefix(name, prefixes, prefixes_size, &count);
    }
  }
done:
  free(bytes);
  return count;
}
