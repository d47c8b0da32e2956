package blockfrost

func (a *API) epochRoutes() []Route { return nil }
