package longstraw

// #include "longstraw.h"
import "C"

// headerVersionNumber is LONGSTRAW_VERSION_NUMBER from the header this
// package was compiled against (Version() is the linked library's).
func headerVersionNumber() int { return int(C.LONGSTRAW_VERSION_NUMBER) }
