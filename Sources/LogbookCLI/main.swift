import Foundation
import Logbook

// Before any file is opened: a closed stdin, stdout or stderr is opened on /dev/null, and remembered.
StandardDescriptors.reserveClosedOnes()

// Nothing in the tool reads SQLite's memory statistics: without them no allocation takes their mutex.
ProcessSettings.stopCountingMemory()

// An interrupted command removes the temporary files it was writing (`-o`, `backup`), then dies
// of the signal as it would have. A file size limit (`ulimit -f`) is an ordinary write error
// (EFBIG) instead of death by SIGXFSZ.
TemporaryFiles.prepareForSignalHandlers()
for interruption in [SIGINT, SIGTERM, SIGHUP] {
    signal(interruption) { received in
        TemporaryFiles.removeAll()
        signal(received, SIG_DFL)
        raise(received)
    }
}
signal(SIGXFSZ, SIG_IGN)
// A pipe whose reader has gone is a failed write (EPIPE), not death by SIGPIPE: on stdout the
// command stops quietly with status 141, as SIGPIPE would have ended it (`| head`); on stderr it
// changes nothing, so a write whose confirmation found no reader (`2>&1 | grep -q`) exits 0 after
// its commit, as with a closed stderr (it died with 141, and a script retrying added twice).
signal(SIGPIPE, SIG_IGN)

// Text given as an argument is stored byte for byte: an argument that is not UTF-8 (typed on a
// Latin-1 terminal, say) is refused, where `CommandLine.arguments` would hold it with U+FFFD.
var arguments: [String] = []
for index in 1..<Int(CommandLine.argc) {
    guard let argument = CommandLine.unsafeArgv[index].flatMap({ String(validatingCString: $0) }) else {
        Console.writeToStandardError("logbook: error: argument \(index) is not UTF-8 text, which Logbook keeps byte for byte\n")
        exit(2)
    }
    arguments.append(argument)
}
// So are the variables that name files, when the command reads them: one that is not UTF-8 would
// name another file (`ProcessInfo` holds it with U+FFFD). Unread, it stops nothing (`--db` given).
let variablesNotUTF8 = Set(Invocation.fileVariables.filter { name in getenv(name).map { String(validatingCString: $0) == nil } ?? false })
exit(CommandLineTool.run(arguments, environment: ProcessInfo.processInfo.environment, variablesNotUTF8: variablesNotUTF8))
