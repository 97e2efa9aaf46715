import Foundation
import Testing
@testable import StoreModel

struct StorefrontTests {
    @Test func majorStorefronts() {
        let expected: [(String, String, String, String)] = [
            ("USA", "143441", "USD", "en_US"), ("FRA", "143442", "EUR", "fr_FR"), ("DEU", "143443", "EUR", "de_DE"),
            ("GBR", "143444", "GBP", "en_GB"), ("JPN", "143462", "JPY", "ja_JP"), ("CAN", "143455", "CAD", "en_CA"),
            ("AUS", "143460", "AUD", "en_AU"), ("CHN", "143465", "CNY", "zh_CN"), ("KOR", "143466", "KRW", "ko_KR"),
            ("ESP", "143454", "EUR", "es_ES"), ("ITA", "143450", "EUR", "it_IT"), ("BRA", "143503", "BRL", "pt_BR"),
            ("MEX", "143468", "MXN", "es_MX"), ("IND", "143467", "INR", "en_IN"), ("NLD", "143452", "EUR", "nl_NL"),
            ("SWE", "143456", "SEK", "sv_SE"), ("CHE", "143459", "CHF", "de_CH"), ("TUR", "143480", "TRY", "tr_TR"),
        ]
        for (code, id, currency, locale) in expected {
            #expect(Storefront.lookup(code) == Storefront(countryCode: code, id: id, currency: currency, locale: locale))
        }
        #expect(Storefront.lookup("usa")?.id == "143441")
        #expect(Storefront.lookup("Fra")?.id == "143442")
        #expect(Storefront.lookup("US") == nil)
        #expect(Storefront.lookup("XYZ") == nil)
        #expect(Storefront.lookup(id: "143462")?.countryCode == "JPN")
        #expect(Storefront.unitedStates.countryCode == "USA")
    }

    @Test func tableIsCompleteAndConsistent() {
        let all = Storefront.all
        #expect(all.count >= 175)
        #expect(Set(all.map(\.countryCode)).count == all.count)
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(all.map(\.countryCode) == all.map(\.countryCode).sorted())
        for storefront in all {
            #expect(storefront.countryCode.count == 3 && storefront.countryCode == storefront.countryCode.uppercased())
            #expect(storefront.id.count == 6 && storefront.id.hasPrefix("143") && Int(storefront.id) != nil)
            #expect(storefront.currency.count == 3)
            #expect(storefront.locale.contains("_"))
            // Every storefront formats something non-empty with Foundation.
            #expect(!storefront.formatted(dec("4.99")).isEmpty, "\(storefront.countryCode)")
        }
    }

    @Test func formatting() {
        let usa = Storefront.lookup("USA")
        let fra = Storefront.lookup("FRA")
        let jpn = Storefront.lookup("JPN")
        let gbr = Storefront.lookup("GBR")
        let deu = Storefront.lookup("DEU")
        #expect(usa?.formatted(dec("4.99")) == "$4.99")
        #expect(usa?.formatted(dec("0.5")) == "$0.50")
        #expect(usa?.formatted(dec("1199.99")) == "$1,199.99")
        #expect(fra?.formatted(dec("4.99")) == "4,99\u{00A0}€")
        #expect(jpn?.formatted(dec("500")) == "¥500")
        #expect(jpn?.formatted(dec("500")).unicodeScalars.first == "\u{00A5}")
        #expect(gbr?.formatted(dec("4.99")) == "£4.99")
        #expect(deu?.formatted(dec("4.99")) == "4,99\u{00A0}€")
        #expect(Storefront.lookup("KOR")?.formatted(dec("5500")) == "₩5,500")
    }

    @Test func currencyFractionDigits() {
        // Foundation knows the digits of each currency: JPY 0, USD 2, KWD 3.
        #expect(PriceFormatter.format(dec("500"), currency: "JPY", locale: "ja_JP") == "¥500")
        #expect(PriceFormatter.format(dec("4.5"), currency: "USD", locale: "en_US") == "$4.50")
        let kwd = PriceFormatter.format(dec("1.5"), currency: "KWD", locale: "en_US")
        #expect(kwd.hasSuffix("1.500"))
    }

    @Test func normalization() {
        #expect(PriceFormatter.normalize("4,99\u{202F}€") == "4,99\u{00A0}€")
        #expect(PriceFormatter.normalize("\u{FFE5}500") == "\u{00A5}500")
    }

    @Test func milliunits() {
        let usa = Storefront.unitedStates
        #expect(usa.milliunits(dec("4.99")) == 4990)
        #expect(usa.milliunits(dec("0")) == 0)
        #expect(usa.milliunits(dec("199.99")) == 199_990)
        #expect(usa.milliunits(dec("0.0005")) == 1)  // half up
        #expect(usa.milliunits(dec("0.0004")) == 0)
        #expect(usa.milliunits(dec("1.2345")) == 1235)
        #expect(usa.milliunits(dec("2800")) == 2_800_000)
        #expect(usa.milliunits(dec("0.1")) == 100)
        #expect(usa.milliunits(dec("99999999999999999999")) == Int64.max)
        #expect(usa.milliunits(.nan) == 0)
        #expect(usa.milliunits(dec("-4.99")) == -4990)
        #expect(usa.milliunits(dec("9223372036854775.807")) == Int64.max)
    }

    /// A price asked for again gives the same milliunits (they are remembered per price), also
    /// for prices equal in value but written differently.
    @Test func milliunitsAreStableWhenAskedAgain() {
        for text in ["4.99", "4.990", "0.0005", "1.2345", "2800", "-4.99"] {
            let first = PriceFormatter.milliunits(dec(text))
            #expect(PriceFormatter.milliunits(dec(text)) == first && first == PriceFormatter.roundedMilliunits(dec(text)), "\(text)")
        }
    }
}
