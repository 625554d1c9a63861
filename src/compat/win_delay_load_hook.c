/* The mingw-w64 build only (scripts/build-mingw.sh): the addon's Node-API imports name node.exe,
 * and are delay-loaded, so this hook can bind them to the executable that is actually running. A
 * host that exports Node-API under another name (a renamed node.exe, Electron) then loads the
 * addon, as it loads node-gyp's MSVC builds, which link node-gyp's own hook to the same end (so
 * binding.gyp does not list this file). */
#include <windows.h>
#include <delayimp.h>

static FARPROC WINAPI nat_delay_load_hook(unsigned event, PDelayLoadInfo info) {
  if (event == dliNotePreLoadLibrary && lstrcmpiA(info->szDll, "node.exe") == 0) {
    return (FARPROC) GetModuleHandleA(NULL);
  }
  return NULL; /* every other event and library: the default behaviour */
}

/* read by mingw-w64's __delayLoadHelper2 before it loads a delay-loaded DLL */
PfnDliHook __pfnDliNotifyHook2 = nat_delay_load_hook;
