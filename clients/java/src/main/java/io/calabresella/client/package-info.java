/**
 * The Java client of the Calabresella game server.
 *
 * <p>{@link io.calabresella.client.CalabresellaClient} connects and manages tables;
 * {@link io.calabresella.client.Seat} is a joined seat: its ordered, self-resuming
 * {@link io.calabresella.client.UpdateStream}, idempotent {@code act} calls and
 * {@link io.calabresella.client.Seat#play(Bot)}, the one play loop. Every failure the server
 * reports is a {@link io.calabresella.client.CalabresellaException} carrying the gRPC code and
 * the {@code google.rpc.ErrorInfo} reason. The wire messages are the generated classes of
 * {@code io.calabresella.v1}.
 */
package io.calabresella.client;
