package io.github.leanscrape.serve;

/**
 * A body ready to send, and how it came to be.
 *
 * @param body the body, whose reference the holder owns
 * @param outcome rendered for this request, shared with another, or cached
 * @author leanscrape
 */
public record Served(ScrapeBody body, Outcome outcome) {

}
