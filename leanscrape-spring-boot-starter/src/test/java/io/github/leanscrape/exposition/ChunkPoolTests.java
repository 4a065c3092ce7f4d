package io.github.leanscrape.exposition;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.leanscrape.support.OwnCodeTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ChunkPool}'s accounting of chunks in use and its reservations.
 *
 * @author leanscrape
 */
@Tag(OwnCodeTests.TAG)
class ChunkPoolTests {

	@Test
	void peakIsTheMostChunksInUseAtOnce() {
		ChunkPool pool = new ChunkPool(1024, 4096);
		byte[] first = pool.acquire();
		byte[] second = pool.acquire();
		byte[] third = pool.acquire();
		pool.release(second);
		pool.release(third);
		byte[] fourth = pool.acquire();
		assertThat(pool.chunksInUse()).isEqualTo(2);
		assertThat(pool.peakChunksInUse()).isEqualTo(3);
		pool.release(first);
		pool.release(fourth);
		assertThat(pool.chunksInUse()).isZero();
		assertThat(pool.peakChunksInUse()).isEqualTo(3);
	}

	@Test
	void reserveGivesUpAtTheDeadlineWhileTooMuchIsHeld() throws InterruptedException {
		ChunkPool pool = new ChunkPool(1024, 0);
		pool.acquire();
		pool.acquire();
		assertThat(pool.reserve(2, 3, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50))).isFalse();
		assertThat(pool.reservedChunks()).isZero();
		assertThat(pool.reserve(1, 3, System.nanoTime())).isTrue();
		assertThat(pool.reservedChunks()).isEqualTo(1);
	}

	@Test
	void reserveGoesAheadOnceChunksComeBack() throws Exception {
		ChunkPool pool = new ChunkPool(1024, 0);
		byte[] first = pool.acquire();
		pool.acquire();
		AtomicBoolean reserved = new AtomicBoolean();
		Thread waiter = new Thread(
				() -> reserved.set(reserve(pool, 2, 3, System.nanoTime() + TimeUnit.SECONDS.toNanos(30))));
		waiter.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
		assertThat(pool.reservedChunks()).isZero();
		pool.release(first);
		waiter.join(TimeUnit.SECONDS.toMillis(30));
		assertThat(reserved).isTrue();
		assertThat(pool.reservedChunks()).isEqualTo(2);
		pool.unreserve(2);
		assertThat(pool.reservedChunks()).isZero();
	}

	@Test
	void reserveNeverWaitsWhenNothingIsHeld() throws InterruptedException {
		ChunkPool pool = new ChunkPool(1024, 0);
		// Larger than the limit and past its deadline: one rendering can always go ahead.
		assertThat(pool.reserve(10, 3, System.nanoTime() - 1)).isTrue();
		assertThat(pool.reserve(1, 3, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50))).isFalse();
	}

	private static boolean reserve(ChunkPool pool, long chunks, long limit, long deadlineNanos) {
		try {
			return pool.reserve(chunks, limit, deadlineNanos);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
