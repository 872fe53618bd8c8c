import type { MetaFunction } from "@remix-run/node";
import { AdRow } from "~/components/AdRow";
import { About, Contact, Hero, Resources } from "~/components/home/HomeSections";
import { useSiteSettings } from "~/root";

export const meta: MetaFunction = ({ matches }) => {
  const root = matches.find((match) => match.id === "root")?.data as
    | { settings: { product: string; siteName: string } }
    | undefined;
  const product = root?.settings.product ?? "Zen";
  const siteName = root?.settings.siteName ?? `${product} Buddhism`;
  return [
    { title: `${siteName} · Discover the Ancient Wisdom of ${product} Buddhism` },
    {
      name: "description",
      content: `Meditation guidance, teachings and community for anyone curious about ${product} Buddhism: start sitting, read the blog, and get in touch.`,
    },
  ];
};

export default function Home() {
  const settings = useSiteSettings();
  return (
    <>
      <Hero product={settings.product} />
      <AdRow name="home-top" scriptUrl={settings.adScriptUrl} />
      <About product={settings.product} encyclopediaUrl={settings.encyclopediaUrl} />
      <AdRow name="home-middle" />
      <Resources feedUrl={settings.rssFeedEmbedUrl} />
      <AdRow name="home-bottom" />
      <Contact formUrl={settings.leadFormUrl} scriptUrl={settings.leadFormScriptUrl} />
    </>
  );
}
