import Foundation
import Sift

/// Looking into how a statement runs: `.timer`, `.sql`, `.eqp`, `.engine`, `.ast`, `.describe`.
extension DotCommands {
    static let inspectCommands: [DotCommand] = []
}
