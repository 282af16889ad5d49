import Foundation
import Logbook

// An interrupted command removes the temporary files it was writing (`-o`, `backup`), then dies
// of the signal as it would have. A file size limit (`ulimit -f`) is an ordinary write error
// (EFBIG) instead of death by SIGXFSZ.
for interruption in [SIGINT, SIGTERM, SIGHUP] {
    signal(interruption) { received in
        TemporaryFiles.removeAll()
        signal(received, SIG_DFL)
        raise(received)
    }
}
signal(SIGXFSZ, SIG_IGN)

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
