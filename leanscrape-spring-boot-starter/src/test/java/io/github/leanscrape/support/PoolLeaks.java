package io.github.leanscrape.support;

import java.time.Duration;

import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.serve.Scraper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The check that every chunk a test's scrapes took went back to the pool.
 *
 * @author leanscrape
 */
public final class PoolLeaks {

	private PoolLeaks() {
	}

	/**
	 * Wait until every chunk is back but those the encoders keep to reuse unchanged
	 * segments (a response may still be on its way out), then drop those and check that
	 * none is in use.
	 * @param pool the pool
	 * @param scraper the scraper whose encoders keep segments
	 */
	public static void assertEveryChunkReturns(ChunkPool pool, Scraper scraper) {
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(pool.chunksInUse()).isEqualTo(scraper.keptChunks()));
		scraper.forgetKept();
		assertThat(pool.chunksInUse()).isZero();
	}

}
