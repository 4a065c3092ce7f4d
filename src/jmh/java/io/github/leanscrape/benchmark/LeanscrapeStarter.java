package io.github.leanscrape.benchmark;

import java.util.Properties;

import io.github.leanscrape.autoconfigure.LeanscrapeProperties;
import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.GzipEncoder;
import io.github.leanscrape.exposition.ReferenceScrapeRenderer;
import io.github.leanscrape.exposition.ScrapeRenderer;
import io.github.leanscrape.exposition.ScrapeSizeHints;
import io.github.leanscrape.exposition.Scraper;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The starter's scrape objects, built as {@code LeanscrapeAutoConfiguration} builds its
 * beans with the default {@link LeanscrapeProperties}. {@link #create} is the one place
 * that knows how: when the auto-configuration changes (another renderer, other
 * collaborators), only it changes.
 *
 * @param pool the pool of output chunks
 * @param sizeHints the size hints of each kind of scrape
 * @param scraper the scraper
 * @param endpoint the endpoint, as the web layer calls it
 * @author leanscrape
 */
record LeanscrapeStarter(ChunkPool pool, ScrapeSizeHints sizeHints, Scraper scraper,
		LeanscrapeScrapeEndpoint endpoint) {

	/**
	 * Build the starter's objects for a registry.
	 * @param prometheusRegistry the registry to scrape
	 * @param exporterProperties client_java's exporter properties, as Spring Boot passes them
	 * @return the objects
	 */
	static LeanscrapeStarter create(PrometheusRegistry prometheusRegistry, @Nullable Properties exporterProperties) {
		LeanscrapeProperties properties = new LeanscrapeProperties();
		ScrapeRenderer renderer = new ReferenceScrapeRenderer(prometheusRegistry, exporterProperties);
		LeanscrapeProperties.Buffer buffer = properties.getBuffer();
		ChunkPool pool = new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, buffer.getMaxRetained().toBytes());
		ScrapeSizeHints sizeHints = new ScrapeSizeHints(pool, buffer.getHeadroom().toBytes());
		LeanscrapeProperties.Compression compression = properties.getCompression();
		GzipEncoder gzip = compression.isEnabled() ? new GzipEncoder(pool, compression.getLevel()) : null;
		Scraper scraper = new Scraper(renderer, pool, sizeHints, gzip);
		LeanscrapeScrapeEndpoint endpoint = new LeanscrapeScrapeEndpoint(prometheusRegistry, exporterProperties,
				scraper);
		return new LeanscrapeStarter(pool, sizeHints, scraper, endpoint);
	}

}
