/** An example program: play a whole match against the server's bots. */
package io.calabresella.example;
