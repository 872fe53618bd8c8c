import { AdSlot } from "~/components/AdRow";
import { EmbedFrame } from "~/components/EmbedFrame";
import { EnsoMark } from "~/components/EnsoMark";

export const FEED_HEIGHT_PX = 800;
export const CONTACT_FORM_HEIGHT_PX = 789;

const sectionHeading = "font-serif text-3xl font-semibold tracking-tight text-ink sm:text-4xl";
const eyebrow = "text-sm font-semibold uppercase tracking-widest text-moss-700";

export function Hero({ product }: { product: string }) {
  return (
    <section
      id="home"
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-gradient-to-b from-stone-100 via-paper to-paper"
    >
      <EnsoMark className="pointer-events-none absolute -right-24 top-10 h-[28rem] w-[28rem] text-stone-900/[0.06] sm:right-0 md:h-[36rem] md:w-[36rem]" />
      <div className="relative mx-auto flex min-h-[70vh] max-w-6xl flex-col justify-center px-4 py-20 sm:px-6">
        <p className={eyebrow}>Meditation · Study · Community</p>
        <h1 id="hero-title" className="mt-4 max-w-3xl font-serif text-4xl font-semibold leading-tight tracking-tight text-ink sm:text-5xl md:text-6xl">
          Discover the Ancient Wisdom of {product} Buddhism
        </h1>
        <p className="mt-6 max-w-2xl text-lg leading-relaxed text-stone-700">
          Sit down, breathe, and begin where you are. Practical guidance, clear teachings and a welcoming
          community for newcomers and long-time practitioners alike.
        </p>
        <div className="mt-10 flex flex-wrap gap-4">
          <a href="#about" className="inline-flex items-center rounded-full bg-moss-700 px-7 py-3 font-semibold text-white shadow-sm transition-colors hover:bg-moss-800">
            Learn More
          </a>
          <a href="#resources" className="inline-flex items-center rounded-full border border-stone-400 bg-white/60 px-7 py-3 font-semibold text-stone-800 transition-colors hover:bg-white">
            View Resources
          </a>
        </div>
      </div>
    </section>
  );
}

const pillars = [
  { title: "Zazen", text: "Seated meditation: upright posture, settled breath, and simply being present." },
  { title: "Kōan study", text: "Paradoxical questions that loosen habitual thinking and open direct insight." },
  { title: "Everyday practice", text: "Eating, walking and working with full attention: the whole day as practice." },
];

export function About({ product, encyclopediaUrl }: { product: string; encyclopediaUrl: string }) {
  return (
    <section id="about" aria-labelledby="about-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
      <div className="grid items-start gap-12 md:grid-cols-2">
        <div>
          <p className={eyebrow}>About</p>
          <h2 id="about-title" className={`mt-3 ${sectionHeading}`}>About {product} Buddhism</h2>
          <div className="mt-6 space-y-4 text-lg leading-relaxed text-stone-700">
            <p>
              {product} is a school of Mahāyāna Buddhism that places meditation and direct experience at the
              centre of the path. Rather than relying on doctrine alone, it invites each person to look
              deeply into their own mind.
            </p>
            <p>
              Its teachers speak of &ldquo;beginner&rsquo;s mind&rdquo;: meeting each moment freshly, without
              the weight of assumptions. Anyone can start, with nothing more than a quiet place to sit.
            </p>
          </div>
          <a
            href={encyclopediaUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-6 inline-flex items-center gap-1 font-semibold text-moss-700 underline underline-offset-4 hover:text-ochre-700"
          >
            Read more about {product} in the encyclopedia
            <span aria-hidden="true">↗</span>
          </a>
        </div>
        <ul className="grid gap-4">
          {pillars.map((pillar) => (
            <li key={pillar.title} className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
              <h3 className="font-serif text-xl font-semibold text-ink">{pillar.title}</h3>
              <p className="mt-2 leading-relaxed text-stone-700">{pillar.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function Resources({ feedUrl }: { feedUrl: string | undefined }) {
  return (
    <section id="resources" aria-labelledby="resources-title" className="bg-stone-100/70 py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <p className={eyebrow}>Resources</p>
        <h2 id="resources-title" className={`mt-3 ${sectionHeading}`}>Resources for your practice</h2>
        <p className="mt-4 max-w-2xl text-lg text-stone-700">
          Fresh articles from around the Buddhist world, gathered in one feed.
        </p>
        <div className="mt-10 grid gap-8 lg:grid-cols-3">
          <div className="lg:col-span-2">
            <EmbedFrame
              src={feedUrl}
              title="Buddhist article feed"
              height={FEED_HEIGHT_PX}
              missingText="The article feed is not configured yet."
            />
          </div>
          <div className="space-y-8">
            <div className="rounded-xl border border-ochre-600/30 bg-amber-50 p-6">
              <h3 className="font-serif text-xl font-semibold text-ink">Featured Content</h3>
              <p className="mt-3 leading-relaxed text-stone-700">
                Your retreat, book or meditation centre could be featured here. Reach thousands of readers
                who care about mindful living.
              </p>
              <p className="mt-3 text-sm text-stone-600">Sponsored placement</p>
            </div>
            <AdSlot id="ad-resources-tower" height={600} className="hidden lg:flex" />
          </div>
        </div>
      </div>
    </section>
  );
}

export function Contact({ formUrl, scriptUrl }: { formUrl: string | undefined; scriptUrl: string | undefined }) {
  return (
    <section id="contact" aria-labelledby="contact-title" className="mx-auto max-w-3xl px-4 py-20 sm:px-6">
      <p className={`text-center ${eyebrow}`}>Contact</p>
      <h2 id="contact-title" className={`mt-3 text-center ${sectionHeading}`}>Get in touch</h2>
      <p className="mx-auto mt-4 max-w-xl text-center text-lg text-stone-700">
        Questions about practice, visiting, or volunteering? Send us a message and we will reply.
      </p>
      <div className="mt-10">
        <EmbedFrame
          src={formUrl}
          scriptUrl={scriptUrl}
          title="Contact form"
          height={CONTACT_FORM_HEIGHT_PX}
          missingText="The contact form is not configured yet."
        />
      </div>
    </section>
  );
}
