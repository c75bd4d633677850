import CSoundEngineABI
import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession

/// The checks every C argument passes before it reaches Swift: pointers,
/// strings, floats, times, struct sizes and enum values. Each failure is
/// `invalidParameter` naming the function and the parameter; each check
/// runs before anything that could trap on the value (a `Duration` of a
/// huge number, an `Int` of NaN).
enum Argument {
    /// `"se_post_event: "`: the C function a message is about.
    private static func prefix(_ function: StaticString) -> String {
        let name = "\(function)"
        return String(name.prefix { $0 != "(" }) + ": "
    }

    static func invalid(_ function: StaticString, _ message: String) -> SoundEngineError {
        .invalidParameter(prefix(function) + message)
    }

    /// A pointer the call requires.
    static func required<T>(_ pointer: T?, _ name: StaticString, _ function: StaticString = #function)
        throws(SoundEngineError) -> T
    {
        guard let pointer else { throw invalid(function, "\(name) is NULL") }
        return pointer
    }

    /// A required NUL-terminated UTF-8 string.
    static func string(_ pointer: UnsafePointer<CChar>?, _ name: StaticString, _ function: StaticString = #function)
        throws(SoundEngineError) -> String
    {
        guard let pointer else { throw invalid(function, "\(name) is NULL") }
        return try text(pointer, name, function)
    }

    /// An optional string: NULL is `nil`.
    static func optionalString(
        _ pointer: UnsafePointer<CChar>?, _ name: StaticString, _ function: StaticString = #function
    ) throws(SoundEngineError) -> String? {
        guard let pointer else { return nil }
        return try text(pointer, name, function)
    }

    private static func text(_ pointer: UnsafePointer<CChar>, _ name: StaticString, _ function: StaticString)
        throws(SoundEngineError) -> String
    {
        guard let string = String(validatingCString: pointer) else {
            throw invalid(function, "\(name) is not valid UTF-8")
        }
        return string
    }

    /// A float that must be finite (its range is the engine's to check).
    static func finite(_ value: Float, _ name: StaticString, _ function: StaticString = #function)
        throws(SoundEngineError)
    {
        guard value.isFinite else { throw invalid(function, "\(name) = \(value): must be a finite number") }
    }

    /// A double that must be finite.
    static func finite(_ value: Double, _ name: StaticString, _ function: StaticString = #function)
        throws(SoundEngineError)
    {
        guard value.isFinite else { throw invalid(function, "\(name) = \(value): must be a finite number") }
    }

    /// A fade, ramp or interpolation time in milliseconds, 0…SE_MAX_DURATION_MS.
    /// A time the engine reports, in whole milliseconds for C (saturating:
    /// no sound is 24 days long, but nothing may trap).
    static func milliseconds(_ time: Duration) -> Int32 {
        let ms = (TimeArgument.seconds(time) * 1000).rounded(.down)
        return ms >= Double(Int32.max) ? .max : (ms <= 0 ? 0 : Int32(ms))
    }

    static func milliseconds(_ value: Int32, _ name: StaticString, _ function: StaticString = #function)
        throws(SoundEngineError) -> Duration
    {
        guard value >= 0, value <= SE_MAX_DURATION_MS else {
            throw invalid(function, "\(name) = \(value) ms: must be 0…\(SE_MAX_DURATION_MS) ms")
        }
        return .milliseconds(Int(value))
    }

    /// The struct a required pointer points to, read only after its first
    /// field, `struct_size`, says it is the size this library knows: a
    /// smaller struct (from an older header) is never read past its end.
    static func sized<T>(_ pointer: UnsafePointer<T>?, _ name: StaticString, _ function: StaticString = #function)
        throws(SoundEngineError) -> T
    {
        let pointer = try required(pointer, name, function)
        let size = UnsafeRawPointer(pointer).load(as: UInt32.self)
        try structSize(Int(size), of: T.self, function)
        return pointer.pointee
    }

    /// A `struct_size` argument or field: this library knows one size of
    /// each struct, sizeof in C (its stride in Swift).
    static func structSize<T>(_ size: Int, of type: T.Type, _ function: StaticString = #function)
        throws(SoundEngineError)
    {
        let expected = MemoryLayout<T>.stride
        guard size == expected else {
            throw invalid(
                function,
                "struct_size = \(size): this library's \(T.self) is \(expected) bytes (sizeof(\(T.self)) of its sound_engine.h)")
        }
    }

    /// The bytes of `T`'s fields that a caller's struct of `size` holds: a
    /// struct that grew (``GrowingStruct``) is accepted in every size it has
    /// had, so a game built against an older header keeps working.
    static func fieldBytes<T: GrowingStruct>(_ size: Int, of type: T.Type, _ function: StaticString = #function)
        throws(SoundEngineError) -> Int
    {
        guard let version = T.versions.first(where: { $0.size == size }) else {
            let sizes = T.versions.map { "\($0.size)" }.joined(separator: " or ")
            throw invalid(
                function,
                "struct_size = \(size): this library's \(T.self) is \(sizes) bytes (sizeof(\(T.self)) of its sound_engine.h, or of an older one)")
        }
        return version.fieldBytes
    }

    /// The struct a required pointer points to, in whichever of its sizes
    /// its `struct_size` says: the fields an older header's struct lacks
    /// keep their values in `defaults`. Never reads past that size.
    static func grown<T: GrowingStruct>(
        _ pointer: UnsafePointer<T>?, _ name: StaticString, defaults: T, _ function: StaticString = #function
    ) throws(SoundEngineError) -> T {
        let pointer = try required(pointer, name, function)
        let size = UnsafeRawPointer(pointer).load(as: UInt32.self)
        let bytes = try fieldBytes(Int(size), of: T.self, function)
        var value = defaults
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: bytes)) }
        return value
    }

    /// Writes `value` to `out`, a struct of the caller's `size` (checked
    /// first): only the fields that size holds, its `struct_size` set to it.
    static func write<T: GrowingStruct>(
        _ value: T, to out: UnsafeMutablePointer<T>, size: Int, _ function: StaticString = #function
    ) throws(SoundEngineError) {
        let bytes = try fieldBytes(size, of: T.self, function)
        var value = value
        withUnsafeMutableBytes(of: &value) { raw in
            raw.storeBytes(of: UInt32(size), as: UInt32.self)  // struct_size, the first field of each
            UnsafeMutableRawPointer(out).copyMemory(from: raw.baseAddress!, byteCount: bytes)
        }
    }

    /// A bitmask with no bits outside `known`.
    static func mask(_ value: UInt32, known: UInt32, _ name: StaticString, _ function: StaticString = #function)
        throws(SoundEngineError)
    {
        guard value & ~known == 0 else {
            throw invalid(function, "\(name) = 0x\(String(value, radix: 16)): bits 0x\(String(value & ~known, radix: 16)) mean nothing")
        }
    }

    /// A value that is not one of an enum's cases.
    static func notListed(_ value: UInt32, _ name: StaticString, _ type: StaticString, _ function: StaticString = #function)
        -> SoundEngineError
    {
        invalid(function, "\(name) = \(value) is not an \(type) value")
    }

    /// A game object that may be registered (not 0, not SE_INVALID_GAME_OBJECT).
    static func gameObject(_ value: UInt64, _ name: StaticString = "game_object", _ function: StaticString = #function)
        throws(SoundEngineError) -> GameObjectID
    {
        let object = GameObjectID(value)
        guard object.isValid else {
            throw invalid(function, "\(name) = \(value): 0 and SE_INVALID_GAME_OBJECT are never game objects")
        }
        return object
    }

    /// An RTPC scope: SE_INVALID_GAME_OBJECT is the global value (`nil`).
    static func scope(_ value: UInt64, _ function: StaticString = #function) throws(SoundEngineError) -> GameObjectID? {
        value == UInt64.max ? nil : try gameObject(value, "game_object", function)
    }
}


/// A C struct that has grown by fields appended at its end, each version
/// starting with `uint32_t struct_size`. The library accepts every size it
/// has had: a game built against an older header passes its older `sizeof`.
protocol GrowingStruct {
    /// Each size a game may pass (`sizeof` in a header of that version) with
    /// the bytes of fields it holds (its size without tail padding), newest first.
    static var versions: [(size: Int, fieldBytes: Int)] { get }
}

extension GrowingStruct {
    /// This header's struct.
    static var current: (size: Int, fieldBytes: Int) { (MemoryLayout<Self>.stride, MemoryLayout<Self>.size) }

    /// An older header's struct: the fields before `firstNewField`, in a
    /// struct of the same alignment (the fields added since need none larger).
    static func before(_ firstNewField: PartialKeyPath<Self>) -> (size: Int, fieldBytes: Int) {
        // Every key path given is a stored field of the C struct: it has an offset.
        let bytes = MemoryLayout<Self>.offset(of: firstNewField)!
        let alignment = MemoryLayout<Self>.alignment
        return ((bytes + alignment - 1) / alignment * alignment, bytes)
    }
}
