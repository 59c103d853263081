//! Stopping on SIGTERM or Ctrl-C without dropping a request (issue 30, D398).
//!
//! axum's own graceful shutdown closes the listening socket, which resets the
//! connections the kernel had already completed but the server had not yet taken, and
//! closes at once every connection whose request it has not read yet. Under load both
//! drop requests. Here, once asked to stop:
//! 1. the listener takes every connection the kernel holds, asking the kernel itself
//!    (the reactor's readiness may lag), then closes: later connects are refused, which a
//!    client or a load balancer can retry elsewhere, never reset;
//! 2. the connections it took get [`READ_GRACE`] to have their requests read;
//! 3. then axum's graceful shutdown finishes every request in flight and closes idle
//!    keep-alive connections;
//! 4. whatever still runs [`STOP_WITHIN`] after the signal is abandoned, so the process
//!    always ends in time for a supervisor's kill timeout.

use axum::serve::Listener;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, watch};

/// How long the connections taken while stopping have for their requests to be read.
pub const READ_GRACE: Duration = Duration::from_millis(500);
/// From the signal to the end of serving, at most (the process then writes what it owes
/// and exits: the 10 s holds with room to spare).
pub const STOP_WITHIN: Duration = Duration::from_secs(8);

pub struct DrainingListener {
    listener: Option<TcpListener>,
    stopping: watch::Receiver<bool>,
    closed: Option<oneshot::Sender<()>>,
    addr: SocketAddr,
}

impl DrainingListener {
    /// `stopping` turning true starts the drain; `closed` is told once the socket is closed.
    pub fn new(
        listener: TcpListener,
        stopping: watch::Receiver<bool>,
        closed: oneshot::Sender<()>,
    ) -> std::io::Result<DrainingListener> {
        let addr = listener.local_addr()?;
        Ok(DrainingListener {
            listener: Some(listener),
            stopping,
            closed: Some(closed),
            addr,
        })
    }
}

/// One connection the kernel has completed, if any, without waiting.
fn take_waiting(listener: &TcpListener) -> Option<(TcpStream, SocketAddr)> {
    let (socket, peer) = socket2::SockRef::from(listener).accept().ok()?;
    let stream: std::net::TcpStream = socket.into();
    stream.set_nonblocking(true).ok()?;
    let peer = peer.as_socket()?;
    Some((TcpStream::from_std(stream).ok()?, peer))
}

impl Listener for DrainingListener {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            let Some(listener) = &self.listener else {
                // Closed: axum stops asking once the shutdown signal fires.
                std::future::pending::<()>().await;
                continue;
            };
            if *self.stopping.borrow() {
                if let Some(conn) = take_waiting(listener) {
                    return conn;
                }
                self.listener = None;
                if let Some(closed) = self.closed.take() {
                    let _ = closed.send(());
                }
                continue;
            }
            tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(conn) => return conn,
                    Err(e) => {
                        // Out of file descriptors and the like: wait, as axum's own listener does.
                        tracing::warn!(error = %e, "accepting a connection failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                },
                _ = self.stopping.changed() => {}
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.addr)
    }
}

/// Serve `app` on `listener` until `signal`, stopping as the module says.
pub async fn serve(
    listener: TcpListener,
    app: axum::extract::connect_info::IntoMakeServiceWithConnectInfo<axum::Router, SocketAddr>,
    signal: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use axum::serve::ListenerExt;
    let (stopping, stopping_rx) = watch::channel(false);
    let (closed, closed_rx) = oneshot::channel();
    let mut signalled = stopping_rx.clone();
    let listener = DrainingListener::new(listener, stopping_rx, closed)?.tap_io(|_| {});
    let shutdown = async move {
        signal.await;
        let _ = stopping.send(true);
        let _ = closed_rx.await;
        tokio::time::sleep(READ_GRACE).await;
    };
    let server = axum::serve(listener, app).with_graceful_shutdown(shutdown);
    tokio::select! {
        served = server.into_future() => served,
        () = async {
            let _ = signalled.wait_for(|s| *s).await;
            tokio::time::sleep(STOP_WITHIN).await;
        } => {
            tracing::warn!(after = ?STOP_WITHIN, "requests were still running; stopping without them");
            Ok(())
        }
    }
}
