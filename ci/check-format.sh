#!/usr/bin/env bash
# Fails when a C source or header, or a C++ source of interop/, differs from
# what the committed .clang-format would make of it, naming the files.
set -euo pipefail
cd "$(dirname "$0")/.."
unformatted=()
while IFS= read -r file; do
  clang-format --dry-run --Werror "$file" >/dev/null 2>&1 || unformatted+=("$file")
done < <(git ls-files '*.c' '*.h' 'interop/*.cc' 'interop/*.cpp')
if ((${#unformatted[@]})); then
  echo "clang-format: ${#unformatted[@]} file(s) need formatting (run: clang-format -i FILE):"
  printf '  %s\n' "${unformatted[@]}"
  exit 1
fi
echo "clang-format: every C and C++ file is formatted"
