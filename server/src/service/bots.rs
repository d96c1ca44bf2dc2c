//! The bot calls (`BotService`): submitting a version of a bot, listing them, and a bot's
//! log of one match for its owner. The work is the runner's (`crate::submitted`); here are
//! the caller's key and the wire.

use calabresella_proto::v1;
use tonic::{Request, Response, Status};

use super::GameService;
use super::validate::table_id;
use crate::error::{Reason, ServiceError};

impl GameService {
    /// The runner of submitted bots.
    pub(super) fn runner(
        &self,
    ) -> Result<&std::sync::Arc<crate::submitted::BotRunner>, ServiceError> {
        self.registry.bots().ok_or_else(|| {
            ServiceError::Precondition(
                Reason::NoSandbox,
                "this server runs no submitted bots".into(),
            )
        })
    }

    /// Pins every submitted bot a new table seats to a version (`submitted:NAME` is the
    /// latest): the record then says which version played.
    pub(super) async fn pin_submitted(
        &self,
        spec: &mut crate::table::TableSpec,
    ) -> Result<(), ServiceError> {
        for bot in spec.bots.iter_mut() {
            if crate::bot_spec::is_submitted(bot) {
                *bot = self.runner()?.resolve(bot).await?.spec();
            }
        }
        Ok(())
    }
}

#[tonic::async_trait]
impl v1::bot_service_server::BotService for GameService {
    async fn submit_bot(
        &self,
        request: Request<v1::SubmitBotRequest>,
    ) -> Result<Response<v1::SubmitBotResponse>, Status> {
        let client = request.remote_addr().map(|a| a.ip());
        let owner = self.registered(client, request.metadata()).await?;
        let version = self.runner()?.submit(&owner, request.into_inner()).await?;
        Ok(Response::new(v1::SubmitBotResponse {
            version: Some(version),
        }))
    }

    async fn list_bots(
        &self,
        request: Request<v1::ListBotsRequest>,
    ) -> Result<Response<v1::ListBotsResponse>, Status> {
        let owner = request.into_inner().owner;
        let owner = (!owner.trim().is_empty()).then(|| owner.trim().to_owned());
        let versions = self.runner()?.list(owner).await?;
        Ok(Response::new(v1::ListBotsResponse { versions }))
    }

    async fn get_bot_log(
        &self,
        request: Request<v1::GetBotLogRequest>,
    ) -> Result<Response<v1::GetBotLogResponse>, Status> {
        let client = request.remote_addr().map(|a| a.ip());
        let who = self.registered(client, request.metadata()).await?;
        let r = request.into_inner();
        let id = table_id(&r.table_id)?.to_owned();
        if r.seat as usize >= calabresella_engine::Seat::MAX {
            return Err(
                ServiceError::Invalid(Reason::BadSeat, format!("no seat {}", r.seat)).into(),
            );
        }
        Ok(Response::new(self.runner()?.log(&who, id, r.seat).await?))
    }
}
