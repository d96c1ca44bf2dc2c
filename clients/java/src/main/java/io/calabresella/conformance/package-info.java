/**
 * The conformance runner: every scenario of {@code tests/conformance/scenarios.json} run
 * against a real server through the client's public API, as the runner contract in
 * {@code tests/conformance/README.md} says. Not part of the library's API.
 */
package io.calabresella.conformance;
