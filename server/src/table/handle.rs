//! [`TableHandle`]: how the rest of the server reaches a table's task, and [`ask`], the one way
//! to send it a command and wait for the answer.

use calabresella_proto::v1;
use tokio::sync::{mpsc, oneshot};

use super::Command;
use crate::error::ServiceError;

/// The way to reach a table's task.
#[derive(Clone)]
pub struct TableHandle {
    /// The table's id.
    pub id: String,
    /// The command channel.
    pub tx: mpsc::Sender<Command>,
    /// The table's latest published description (`ListTables` reads it).
    pub summary: tokio::sync::watch::Receiver<v1::Table>,
}

/// Sends a command built around a reply channel and waits for the answer.
pub async fn ask<T>(
    handle: &TableHandle,
    make: impl FnOnce(oneshot::Sender<T>) -> Command,
) -> Result<T, ServiceError> {
    let (tx, rx) = oneshot::channel();
    handle
        .tx
        .send(make(tx))
        .await
        .map_err(|_| ServiceError::TableNotFound(handle.id.clone()))?;
    rx.await
        .map_err(|_| ServiceError::Unavailable(format!("table {} closed", handle.id)))
}
