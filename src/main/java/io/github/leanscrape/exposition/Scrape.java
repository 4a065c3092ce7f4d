package io.github.leanscrape.exposition;

/**
 * A body ready to send, and how it came to be.
 *
 * @param body the body, whose reference the holder owns
 * @param outcome rendered for this request, shared with another, or cached
 * @author leanscrape
 */
public record Scrape(ScrapeBody body, ScrapeOutcome outcome) {

}
