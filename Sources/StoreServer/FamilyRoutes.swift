import Foundation
import Hummingbird
import StoreEngine

/// Family groups, set by the admin API as a tester sets up Family Sharing on a device:
/// `PUT …/customers/{customer}/family {group}` joins (sharing both ways at once), `DELETE` leaves
/// (shared access ends both ways), `GET` shows the group. Rules: `World+Family`.
struct FamilyRoutes {
    let store: AppStore
    let token: String?

    func register(on router: Router<StoreRequestContext>) {
        let admin = router.group("admin/v1/worlds/:world/customers/:customer").add(middleware: AdminAccess(token: token))
        admin.get("family") { _, context in
            try JSONResponse.ok(try await context.world(try context.pathValue("world"), in: store).family(of: try context.pathValue("customer")))
        }
        admin.put("family") { request, context in
            struct Body: Decodable { var group: String }
            let body = try await request.decodeJSON(Body.self)
            return try JSONResponse.ok(try await context.world(try context.pathValue("world"), in: store).joinFamily(
                customer: try context.pathValue("customer"), group: body.group))
        }
        admin.delete("family") { _, context in
            try JSONResponse.ok(try await context.world(try context.pathValue("world"), in: store).leaveFamily(customer: try context.pathValue("customer")))
        }
    }
}
