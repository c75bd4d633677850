// Short names for the package's own code: the engine, its tests, benchmarks
// and the C API's implementation. A game names these types as they are
// declared, nested (`SoundEngine.GameObjectID`), or writes its own alias:
// top-level names of the module cannot be qualified, because the module and
// the façade share the name `SoundEngine` (decision 0013).
package typealias GameObjectID = SoundEngine.GameObjectID
package typealias PlayingID = SoundEngine.PlayingID
package typealias BankID = SoundEngine.BankID
package typealias Vector3 = SoundEngine.Vector3
package typealias Orientation = SoundEngine.Orientation
package typealias CallbackInfo = SoundEngine.CallbackInfo
package typealias CallbackTypes = SoundEngine.CallbackTypes
package typealias PlayParameters = SoundEngine.PlayParameters
package typealias ApplicationState = SoundEngine.ApplicationState
