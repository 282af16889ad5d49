import Foundation

let status = CommandLineTool.run(Array(CommandLine.arguments.dropFirst()),
                                 environment: ProcessInfo.processInfo.environment)
Console.flush()
exit(status)
