/* A shared object whose ELF constructor leaves a mark: the stand-in for hostile native code in a
 * bundle. Whatever maps it (dlopen) runs the constructor, so the mark file shows who mapped it. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void leave_mark(void) {
  const char* path = getenv("WMC_TEST_CTOR_MARK");
  if (path == NULL) return;
  FILE* f = fopen(path, "w");
  if (f != NULL) {
    fputs("constructor ran\n", f);
    fclose(f);
  }
}
