// fuzz-coredata-model: see CoreDataModelHarness in FuzzSupport.
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    CoreDataModelHarness.run(FuzzDriver.buffer(data, size))
    return 0
}

/// SwiftPM links the executable with `main` aliased to this function; it runs libFuzzer.
@_cdecl("fuzz_coredata_model_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, testOneInput)
}
