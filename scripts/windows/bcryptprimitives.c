/* Wine 8.0 lacks bcryptprimitives.dll, whose ProcessPrng every Rust-built
   Windows binary (ast-grep's napi module, rg.exe) imports at load time.
   ProcessPrng has the same contract as RtlGenRandom (SystemFunction036). */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  return SystemFunction036(data, (ULONG)length);
}
