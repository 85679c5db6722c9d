/* The smallest consumer of an installed libwm: checks the ABI version, opens the bundle named by
 * argv[1] (if any) and lists its definitions. Built by tests/capi/install_test.sh with pkg-config
 * and with find_package(wm). */
#include <stdio.h>
#include <wm.h>

int main(int argc, char** argv) {
  if (wm_abi_version() != WM_ABI_VERSION) {
    fprintf(stderr, "ABI %d, header %d\n", wm_abi_version(), WM_ABI_VERSION);
    return 1;
  }
  if (argc < 2) return 0;
  wm_bundle* bundle = NULL;
  wm_error* error = NULL;
  if (wm_bundle_open(argv[1], NULL, &bundle, &error) != WM_OK) {
    fprintf(stderr, "%s\n", wm_error_message(error));
    wm_error_free(error);
    return 1;
  }
  wm_buffer out = {0};
  wm_code code = wm_bundle_definitions(bundle, &out, &error);
  if (code == WM_OK) printf("%.60s...\n", out.data);
  wm_buffer_free(&out);
  wm_error_free(error);
  wm_bundle_close(bundle);
  return code == WM_OK ? 0 : 1;
}
