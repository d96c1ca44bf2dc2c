package calabresella

// Version is this client's release: one number across the server, the Python package and
// every client (scripts/version.sh keeps them equal). Go modules are versioned by tags
// (clients/go/vX.Y.Z); this constant lets a program report what it was built with.
const Version = "0.1.0"
