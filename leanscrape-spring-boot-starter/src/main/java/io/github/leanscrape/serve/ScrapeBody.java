package io.github.leanscrape.serve;

import java.util.function.Function;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.ReferenceCount;
import org.jspecify.annotations.Nullable;

/**
 * A rendered body as the scrapes that share it hold it: the plain body and its form in
 * each content coding, made once however many share it (the scrapes that joined its
 * rendering, or took it from the cache). Reference-counted on its own: the scrape that
 * rendered it, each scrape that shares it, and the cache hold a reference; the last
 * release gives back the plain body's reference and every form. What is kept between
 * scrapes holds the plain body apart from this, with references of its own.
 *
 * @author leanscrape
 */
public final class ScrapeBody {

	private static final ContentCoding[] CODINGS = ContentCoding.values();

	private final PooledBody plain;

	private final ReferenceCount references = new ReferenceCount();

	/**
	 * The body in each content coding, made when first asked for; each slot guarded by
	 * its lock in {@link #formLocks}, so that two codings compress at the same time.
	 */
	private final @Nullable PooledBody[] forms = new PooledBody[CODINGS.length];

	private final Object[] formLocks = new Object[CODINGS.length];

	/**
	 * Hold a plain body, taking over its caller's reference; the caller holds this
	 * object's first reference.
	 * @param plain the plain body
	 */
	ScrapeBody(PooledBody plain) {
		this.plain = plain;
		for (int i = 0; i < this.formLocks.length; i++) {
			this.formLocks[i] = new Object();
		}
	}

	/**
	 * Return the plain body; valid while a reference to this object is held.
	 * @return the plain body
	 */
	public PooledBody plain() {
		return this.plain;
	}

	/**
	 * Return the body in a content coding, made once by the given encoder and shared by
	 * every holder that asks for that coding. The caller owns a reference to the result.
	 * @param coding the content coding
	 * @param encoder makes the compressed body from the plain one, with a reference that
	 * this object takes over
	 * @return the compressed body
	 */
	PooledBody form(ContentCoding coding, Function<PooledBody, PooledBody> encoder) {
		int slot = coding.ordinal();
		synchronized (this.formLocks[slot]) {
			if (isReleased()) {
				throw new IllegalStateException("Body already released");
			}
			PooledBody form = this.forms[slot];
			if (form == null) {
				// Released with this object's last reference.
				form = encoder.apply(this.plain);
				this.forms[slot] = form;
			}
			return form.retain();
		}
	}

	/**
	 * Add a reference, for one more holder.
	 * @return this body
	 */
	ScrapeBody retain() {
		if (!tryRetain()) {
			throw new IllegalStateException("Body already released");
		}
		return this;
	}

	/**
	 * Add a reference if the body is still live.
	 * @return {@code true} when a reference was added, {@code false} when the body was
	 * already released
	 */
	boolean tryRetain() {
		return this.references.tryRetain();
	}

	/**
	 * Drop a reference; the last one gives back the plain body's and every form's.
	 * Releasing more often than retained does nothing.
	 */
	public void release() {
		if (!this.references.release()) {
			return;
		}
		try {
			for (int slot = 0; slot < this.forms.length; slot++) {
				PooledBody form;
				synchronized (this.formLocks[slot]) {
					form = this.forms[slot];
					this.forms[slot] = null;
				}
				if (form != null) {
					form.release();
				}
			}
		}
		finally {
			this.plain.release();
		}
	}

	/**
	 * Return whether the last reference was released.
	 * @return {@code true} once released
	 */
	public boolean isReleased() {
		return this.references.isReleased();
	}

}
