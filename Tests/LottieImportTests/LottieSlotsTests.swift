// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Render
import Spec
import Testing
import Timeline

@testable import LottieImport

/// Lottie slots (`slots`, `sid`) as parameters: listed with their type, default and range,
/// and `--set` replaces the slot's value at every property that names it (Fixtures/lottie/
/// slots.json: two 20×40 rectangles at x 10…30 and 60…80 filled by slot `accent`, the second
/// one's fill opacity slot `fade`, its centre slot `spot`; `spin` is keyframed).
@Suite struct LottieSlotsTests {
    static func load(_ overrides: [String: String] = [:]) throws -> LoadedPreset {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Fixture.folder)/slots.json")))
        return try LottieLoader.decode(bytes: bytes, file: "slots.json", overrides: overrides)
    }

    static func render(_ overrides: [String: String] = [:]) throws -> RGBAImage {
        let loaded = try load(overrides)
        return try SceneRenderer.render(SceneEvaluator.scene(of: loaded.composition, at: 0))
    }

    static func overrideMessage(_ overrides: [String: String]) -> String? {
        do {
            _ = try load(overrides)
            return nil
        } catch let error as ParameterOverrideError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func fixedSlotsAreParametersWithTheirTypeDefaultAndRange() throws {
        let loaded = try Self.load()
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let params = loaded.composition.parameters
        #expect(params.map(\.name) == ["accent", "fade", "spot"])
        #expect(params[0].defaultValue == .color(RGBAColor(red: 1, green: 0, blue: 0)))
        #expect(params[0].description == "Lottie slot, used at $.layers[0].shapes[0].it[1].c")
        #expect(params[1].defaultValue == .number(100))
        #expect(params[1].minimum == 0 && params[1].maximum == 100)
        #expect(params[2].defaultValue == .string("70 40"))
        #expect(params[2].minimum == nil && params[2].maximum == nil)
    }

    @Test func slotValueReplacesThePropertysOwnEverywhere() throws {
        // The second fill has its own k [0,0,1] (blue); its sid makes it the slot's red.
        let image = try Self.render()
        #expect(pixel(image, 20, 40) == [255, 0, 0, 255])
        #expect(pixel(image, 70, 40) == [255, 0, 0, 255])
        #expect(pixel(image, 45, 40)[3] == 0)
    }

    @Test func setChangesEveryUseOfTheSlot() throws {
        let image = try Self.render(["accent": "green", "fade": "50", "spot": "70 25"])
        // SwiftUI's green is #34C759 (presets' colour names); both rectangles take it.
        #expect(pixel(image, 20, 40) == [0x34, 0xC7, 0x59, 255])
        // The second one at half opacity, its centre moved up to y 25 (y 5…45).
        let right = pixel(image, 70, 10)
        #expect(right[3] == 128, "\(right)")
        #expect(pixel(image, 70, 50)[3] == 0)
        #expect(pixel(image, 70, 44)[3] == 128)
        let loaded = try Self.load(["spot": " ( 70 , 25 ) "])
        #expect(loaded.composition.parameters[2].value == .string("70 25"))
        #expect(try Self.load(["spot": "70   25"]) == loaded)
        #expect(loaded.composition.parameters[2].defaultValue == .string("70 40"))
        // A different value is a different composition (identity includes the slots).
        #expect(try Self.load() != loaded)
    }

    @Test func badSetValuesAreThePresetsMessages() throws {
        #expect(
            Self.overrideMessage(["acent": "red"])
                == "--set acent: the preset has no parameter \"acent\"; did you mean \"accent\"?")
        #expect(Self.overrideMessage(["fade": "150"]) == "--set fade=150: must be at most 100")
        #expect(
            Self.overrideMessage(["fade": "0x40"]) == "--set fade=0x40: expected a number, like the default 100")
        #expect(
            Self.overrideMessage(["accent": "gren"])
                == "--set accent=gren: expected a colour (\(RGBAColor.acceptedColorForms)); did you mean accent=green?")
        #expect(
            Self.overrideMessage(["spot": "70"])
                == "--set spot=70: expected 2 numbers separated by spaces, like the default 70 40, or (x,y)")
        #expect(
            Self.overrideMessage(["spot": "(70,inf)"])
                == "--set spot=(70,inf): expected 2 numbers separated by spaces, like the default 70 40, or (x,y)")
    }

    @Test func aFileWithoutSlotsHasNoParameterToSet() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Fixture.folder)/rect-fill.json")))
        #expect(throws: ParameterOverrideError(message: "--set size: the preset has no parameter \"size\"")) {
            _ = try LottieLoader.decode(bytes: bytes, file: "rect-fill.json", overrides: ["size": "3"])
        }
        #expect(try LottieLoader.decode(bytes: bytes, file: "rect-fill.json").composition.parameters.isEmpty)
    }

    @Test func aSidWithoutItsSlotIsAnErrorAtItsPath() throws {
        let text = """
            {"v":"5.7.4","fr":30,"ip":0,"op":30,"w":10,"h":10,"layers":[{"ty":4,"ind":1,"ip":0,"op":30,"st":0,
             "ks":{},"shapes":[{"ty":"rc","p":{"a":0,"k":[5,5]},"s":{"a":0,"k":[4,4]},"r":{"a":0,"k":0}},
             {"ty":"fl","c":{"sid":"ink"},"o":{"a":0,"k":100}}]}]}
            """
        #expect(throws: PresetError.self) { _ = try LottieLoader.decode(bytes: Array(text.utf8), file: "x.json") }
        do {
            _ = try LottieLoader.decode(bytes: Array(text.utf8), file: "x.json")
        } catch let error as PresetError {
            #expect(
                error.diagnostics.map(\.description)
                    == ["x.json:3:24: error: $.layers[0].shapes[1].c.sid: slot \"ink\" is not in the top-level slots"])
        }
    }
}
