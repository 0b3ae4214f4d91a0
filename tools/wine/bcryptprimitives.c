/*
 * A stand-in bcryptprimitives.dll for running Go test binaries under wine: TEST-ONLY, never shipped.
 *
 * Go 1.22 and later fill their random numbers from bcryptprimitives.dll's ProcessPrng, and the runtime
 * stops at start-up ("bcryptprimitives.dll not found") where that DLL is missing. Windows 8 and later
 * have it; Debian bookworm's wine (8.0) does not (wine gained it in 9.x). So `make test-go-wasm-cross`
 * builds this DLL and puts it in the system32 folder of a throwaway wine prefix under build/, where the
 * runtime looks for it (it loads system DLLs from system32 only). Nothing of longstraw links or loads
 * it: it exists only so that a windows/amd64 Go test binary starts under wine 8.
 *
 * ProcessPrng(pbData, cbData) fills cbData bytes and always returns TRUE (Windows documents that it
 * never fails). It is implemented over RtlGenRandom (advapi32's SystemFunction036, which wine has and
 * which reads the host's random source), in pieces of at most ULONG_MAX bytes, since RtlGenRandom takes
 * a ULONG length and ProcessPrng a SIZE_T. Were RtlGenRandom ever to fail, the DLL ends the process
 * rather than return bytes that are not random.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom, from advapi32 */

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
    while (size > 0) {
        ULONG chunk = size > (SIZE_T)0xFFFFFFFFu ? 0xFFFFFFFFu : (ULONG)size;
        if (!SystemFunction036(data, chunk)) {
            ExitProcess(3);
        }
        data += chunk;
        size -= chunk;
    }
    return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
    (void)instance;
    (void)reason;
    (void)reserved;
    return TRUE;
}
