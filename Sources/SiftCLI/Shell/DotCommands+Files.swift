import Foundation
import Sift

/// Files in and out: `.output`, `.once`, `.import`, `.request`.
extension DotCommands {
    static let fileCommands: [DotCommand] = []
}
