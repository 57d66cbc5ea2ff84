import Testing
@testable import SiftSQL
