interface RepoInfo { name: string; full_name: string; stars: number; archived: boolean }
class OrgService {
  private cache = new Map<string, RepoInfo[]>();
  constructor(private readonly org: string) {}
  async repos(): Promise<RepoInfo[]> {
    const hit = this.cache.get(this.org);
    if (hit) return hit;
    const res = (await tools.github.list_repos({ org: this.org, per_page: 50 })) as { repos: RepoInfo[] };
    this.cache.set(this.org, res.repos);
    return res.repos;
  }
  async topStarred(n: number): Promise<string[]> {
    return (await this.repos()).filter((r) => !r.archived).sort((a, b) => b.stars - a.stars).slice(0, n).map((r) => r.name);
  }
  async totalStars(): Promise<number> {
    return (await this.repos()).reduce((s, r) => s + r.stars, 0);
  }
}
const svc = new OrgService("globex");
const [top, total] = await Promise.all([svc.topStarred(3), svc.totalStars()]);
return { top, total };
