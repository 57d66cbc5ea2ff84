import Foundation
import Synchronization

/// The cluster this process started, stopped by an `atexit` handler.
enum StartedCluster {
    private static let stopArguments = Mutex<[String]?>(nil)

    static func register(directory: String, script: String) {
        stopArguments.withLock { $0 = ["/bin/bash", script, "stop", directory] }
        atexit {
            guard let arguments = StartedCluster.stopArguments.withLock({ $0 }) else { return }
            _ = ChildProcess.run(arguments)
        }
    }
}
