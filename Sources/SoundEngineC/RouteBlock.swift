import CSoundEngineABI
import Glibc
import SoundEngine
import SoundBackend
import SoundCore
import SoundMixer
import SoundSession

/// A route as sound_engine.h hands it out: one `malloc` block holding the
/// SE_Route, then its ports (inputs, then outputs), then their strings, so
/// `free` (se_free_route) releases everything at once and no part can leak
/// on its own.
enum RouteBlock {
    /// The block of `route`, or `nil` when `malloc` fails.
    static func make(_ route: RouteDescription) -> UnsafeMutablePointer<SE_Route>? {
        let ports = route.inputs + route.outputs
        let headerBytes = MemoryLayout<SE_Route>.stride
        let portBytes = MemoryLayout<SE_Port>.stride * ports.count
        var stringBytes = 0
        for port in ports {
            stringBytes += port.portType.rawValue.utf8.count + port.portName.utf8.count + port.uid.utf8.count + 3
        }
        guard let raw = malloc(headerBytes + portBytes + stringBytes) else { return nil }
        let portBase = (raw + headerBytes).bindMemory(to: SE_Port.self, capacity: ports.count)
        var cursor = (raw + headerBytes + portBytes).bindMemory(to: CChar.self, capacity: stringBytes)
        /// Copies `string` and its terminator to the cursor.
        func put(_ string: String) -> UnsafePointer<CChar> {
            let start = cursor
            for byte in string.utf8 {
                cursor.initialize(to: CChar(bitPattern: byte))
                cursor += 1
            }
            cursor.initialize(to: 0)
            cursor += 1
            return UnsafePointer(start)
        }
        for (i, port) in ports.enumerated() {
            (portBase + i).initialize(
                to: SE_Port(
                    type: port.portType.c, type_name: put(port.portType.rawValue), name: put(port.portName),
                    uid: put(port.uid)))
        }
        let header = raw.bindMemory(to: SE_Route.self, capacity: 1)
        header.initialize(
            to: SE_Route(
                input_count: UInt32(route.inputs.count), output_count: UInt32(route.outputs.count),
                inputs: route.inputs.isEmpty ? nil : UnsafePointer(portBase),
                outputs: route.outputs.isEmpty ? nil : UnsafePointer(portBase + route.inputs.count)))
        return header
    }
}
