package webhook

// AllEvents subscribes an endpoint to every event type, present and future.
// Any other code an endpoint subscribes to must be a declared event type
// (events.Declare in the declaring area's events file): the declarations
// are the catalogue, which docs/webhooks.md shows, so a typo is refused at
// once instead of silently receiving nothing.
const AllEvents = "*"
