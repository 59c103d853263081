# -*- coding: utf-8 -*-
"""Demo corpus: story "events" covered by several fictional publishers.

Every event is one real-world-style happening (all fictional) told by 2-5 different
publishers in their own words and sometimes in another language, so near-duplicate
detection and story clustering have something to join. Each coverage is
(publisher key, category, title, text); paragraphs are separated by blank lines.
Read by generate.py. Everything here is invented: no real outlets, no real people.
"""

EVENTS = [
    {"id": "E01", "about": "Signal failure halts Northeast regional rail between Boston and New York", "cov": [
        ("harborlight-herald", "local", "Signal failure strands Boston commuters headed to New York",
         "Thousands of travelers were stuck at South Station on Thursday morning after a signal failure near Providence, Rhode Island, halted regional rail service between Boston and New York for nearly four hours.\n\n"
         "Crews from the Northeast Corridor Rail Authority traced the fault to a flooded equipment hut. Service resumed shortly after noon with delays of up to 90 minutes. Commuter Dana Whitcombe said she had been waiting since 6:40 a.m. \"Nobody told us anything for the first hour,\" she said."),
        ("hudson-lantern", "local", "Rail outage near Providence snarls trains from Penn Station to Boston",
         "A signal outage in Rhode Island froze northbound trains out of Penn Station on Thursday, leaving riders bound for Boston stranded on platforms and idling in tunnels under the Hudson.\n\n"
         "The Northeast Corridor Rail Authority blamed water in a signal hut outside Providence after overnight rain. Trains began moving again around midday. The authority said ticket holders can request a refund online for any trip delayed more than an hour."),
        ("capitol-ledger", "politics", "Lawmakers demand answers after four-hour Northeast rail shutdown",
         "Members of the House transportation subcommittee want a briefing from the Northeast Corridor Rail Authority after a signal failure near Providence, R.I., stopped trains between Boston and New York for four hours on Thursday.\n\n"
         "Rep. Marisol Okafor, who chairs the panel, said the outage showed how fragile the corridor remains despite years of repair funding. Trains to Washington ran normally, but connecting passengers from New England missed afternoon departures south."),
    ]},
    {"id": "E02", "about": "Tropical Storm Odalys approaches South Florida", "cov": [
        ("biscayne-tidewatch", "weather", "Tropical Storm Odalys prompts watches from Key Largo to Fort Lauderdale",
         "Forecasters placed much of South Florida under a tropical storm watch on Tuesday as Tropical Storm Odalys strengthened over the Florida Straits, a rare late-season system with sustained winds near 50 mph.\n\n"
         "Miami-Dade County opened sandbag sites in Homestead and Hialeah. The heaviest rain is expected late Wednesday, with 4 to 6 inches possible along the coast and minor flooding on Miami Beach at high tide. Late-season storms tend to move fast, meteorologist Irene Castellano said, \"so the window to prepare is short.\""),
        ("el-faro-de-la-bahia", "weather", "La tormenta tropical Odalys pone en alerta al sur de Florida",
         "El Centro de Pronósticos emitió el martes una vigilancia de tormenta tropical para Miami-Dade y Broward ante el avance de Odalys, que se fortalece en el estrecho de Florida con vientos de unos 80 kilómetros por hora.\n\n"
         "El condado abrió puntos de distribución de sacos de arena en Homestead y Hialeah. Se esperan entre 10 y 15 centímetros de lluvia a partir del miércoles por la noche. \"Es tarde en la temporada, pero no hay que confiarse\", dijo la vecina Yolanda Arriaga mientras cargaba sacos en su camioneta."),
        ("cronica-del-bayou", "weather", "Odalys amenaza Florida; Houston envía brigadas de apoyo",
         "Mientras la tormenta tropical Odalys se acerca a Miami, la ciudad de Houston anunció el martes que enviará dos brigadas de restablecimiento eléctrico al sur de Florida como parte de un acuerdo de ayuda mutua.\n\n"
         "Los equipos, unos 40 trabajadores, saldrán el miércoles por carretera. Para Texas no se prevén efectos directos de la tormenta, según los pronósticos más recientes."),
    ]},
    {"id": "E03", "about": "Senate committee advances rural broadband bill", "cov": [
        ("capitol-ledger", "politics", "Senate panel advances $6 billion rural broadband bill on 14-8 vote",
         "The Senate Commerce Committee voted 14-8 on Wednesday to send a $6 billion rural broadband bill to the floor, after a late amendment set aside money for tribal lands in Arizona and New Mexico.\n\n"
         "The bill would pay internet providers to extend fiber to homes more than ten miles from a town of 5,000 people. Its sponsors hope for a floor vote before the winter recess, though leaders of both parties have not promised time on the calendar."),
        ("saguaro-sentinel", "science-tech", "Broadband bill moving in Congress could reach Arizona's tribal lands",
         "A rural internet bill that cleared a Senate committee on Wednesday includes money reserved for tribal lands, a change Arizona clinics say could make video appointments possible in places that now have no reliable connection.\n\n"
         "Dr. Teresa Yazzie-Holt, who runs a mobile clinic out of Phoenix, said her staff drive two hours to upload patient records. The $6 billion measure still needs votes in the full Senate and the House."),
        ("paso-norte-noticias", "politics", "Avanza en el Senado un plan de internet rural de 6 mil millones",
         "Un comité del Senado aprobó el miércoles, por 14 votos contra 8, un proyecto de ley de 6 mil millones de dólares para llevar internet de fibra a zonas rurales, incluidas comunidades del oeste de Texas y Nuevo México.\n\n"
         "En el condado de El Paso, varias colonias al este de la ciudad todavía dependen de conexiones por satélite. \"Mis hijos hacen la tarea en el estacionamiento de la biblioteca\", contó Rubén Zamarripa, vecino de Montana Vista."),
    ]},
    {"id": "E04", "about": "Federal government announces transit fund for large Canadian cities", "cov": [
        ("rideau-record", "politics", "Ottawa unveils $3.1-billion fund for city transit projects",
         "The federal government announced a $3.1-billion transit fund on Monday, with the first round of money aimed at rapid bus and light-rail projects in Toronto, Montreal, Vancouver and Ottawa.\n\n"
         "Cities will have to match each federal dollar and show a plan for new housing near stations. The infrastructure minister said the first approvals would come by spring. Ottawa's own request, for the long-delayed eastern rail extension, is expected to be among the first."),
        ("don-valley-daily", "local", "Toronto eyes share of new federal transit money for Eglinton East",
         "Toronto city staff say a new federal transit fund announced Monday could finally pay for light rail along Eglinton Avenue East, a line that has been studied for more than a decade.\n\n"
         "The $3.1-billion program requires cities to match the money and to approve new housing near stations. Councillor Priya Ramcharan called it \"the best shot we have had\" but warned that the city's own share is not yet in the budget."),
        ("heraut-outaouais", "politics", "Transport collectif : Gatineau veut sa part du nouveau fonds fédéral",
         "Le gouvernement fédéral a annoncé lundi un fonds de 3,1 milliards de dollars pour le transport collectif dans les grandes villes. À Gatineau, la mairie espère y trouver l'argent pour le tramway vers l'ouest de la ville.\n\n"
         "Les villes devront fournir une somme équivalente et démontrer un plan de logements près des stations. « Nous sommes prêts depuis deux ans », a affirmé la conseillère Élodie Charbonneau."),
        ("carillon-du-plateau", "politics", "Nouveau fonds fédéral pour le transport en commun : Montréal dans la course",
         "Montréal fait partie des villes visées par le fonds fédéral de 3,1 milliards de dollars annoncé lundi à Ottawa pour les projets d'autobus rapides et de train léger.\n\n"
         "La Ville souhaite prolonger le service rapide par bus sur le boulevard Pie-IX. Des groupes du Plateau rappellent toutefois que les lignes de bus locales ont perdu des passages cette année."),
        ("salish-harbour-times", "politics", "Vancouver's SkyTrain extension on list for federal transit fund",
         "Vancouver's long-planned SkyTrain extension toward the university is one of the projects named in a $3.1-billion federal transit fund announced in Ottawa on Monday.\n\n"
         "Regional mayors welcomed the money but said the requirement to match every federal dollar will be hard to meet without help from the province of British Columbia."),
    ]},
    {"id": "E05", "about": "Denver Highlanders beat Seattle Rainmakers in league final", "cov": [
        ("front-range-gazette", "sports", "Highlanders win the Western Cup, beating Seattle 3-1 at home",
         "The Denver Highlanders are champions. Two second-half goals from midfielder Tomás Vidal-Reyes sealed a 3-1 win over the Seattle Rainmakers in the Western Cup final on Saturday night before a sellout crowd.\n\n"
         "Seattle had equalized early in the second half, but Vidal-Reyes scored in the 64th and 81st minutes. Fans stayed for nearly an hour after the final whistle. A parade is planned for Tuesday along 16th Street."),
        ("puget-sound-signal", "sports", "Rainmakers fall short in Denver as Highlanders take the final",
         "The Seattle Rainmakers' season ended in the thin air of Colorado on Saturday, a 3-1 loss to the Denver Highlanders in the Western Cup final.\n\n"
         "Forward Kenji Alvarado scored Seattle's only goal just after halftime, but the Rainmakers faded late. Coach Brenna Stoltz said her players \"left everything on the field\" and that the club would be back in the final next year."),
    ]},
    {"id": "E06", "about": "Bridge of the Americas reopens after repairs, cutting border waits", "cov": [
        ("paso-norte-noticias", "local", "Reabre el Puente de las Américas tras tres semanas de obras",
         "El Puente de las Américas, que conecta El Paso con Ciudad Juárez, reabrió todos sus carriles el lunes después de tres semanas de reparaciones en la estructura.\n\n"
         "Los tiempos de espera para autos particulares bajaron de casi tres horas a unos 45 minutos, según la Oficina de Aduanas. Comerciantes del centro de El Paso dicen que esperan recuperar clientes para la temporada navideña."),
        ("centinela-del-alamo", "business", "Transportistas de San Antonio celebran la reapertura del puente en El Paso",
         "Empresas de transporte de San Antonio que mueven mercancía hacia Chihuahua celebraron la reapertura del Puente de las Américas en El Paso, cerrado parcialmente durante tres semanas.\n\n"
         "\"Perdimos dos días por semana en filas\", dijo Lorena Quintanilla, gerente de una flotilla de 30 camiones. La Cámara de Comercio de San Antonio calcula que el cierre costó millones a las empresas de la región."),
        ("bayou-city-beacon", "business", "El Paso border bridge reopens, easing cross-border freight delays",
         "Freight and passenger traffic is moving again on all lanes of the Bridge of the Americas in El Paso, Texas, which reopened Monday after three weeks of structural repairs.\n\n"
         "Houston logistics firms that route auto parts through El Paso said the closure had added as much as a day to some shipments. Wait times for cars fell to about 45 minutes on the first day."),
    ]},
    {"id": "E07", "about": "Late-November heat records across the Southwest", "cov": [
        ("saguaro-sentinel", "weather", "Phoenix hits 91 degrees, a record for late November",
         "Phoenix reached 91 degrees on Sunday afternoon, the hottest reading this late in November since local records began, the weather service said.\n\n"
         "Cooling centers that closed for the season in October reopened for two days. Doctors at Valley hospitals said they treated several hikers for heat exhaustion on Camelback Mountain. A cooler pattern arrives Wednesday, with highs near 75."),
        ("palisade-post", "weather", "Santa Ana winds and record heat bring summer back to Los Angeles",
         "Downtown Los Angeles tied a November heat record on Sunday at 94 degrees as dry Santa Ana winds pushed temperatures up across Southern California.\n\n"
         "Fire crews were on alert in the foothills, and the city opened its cooling centers in the San Fernando Valley. The heat is part of a broad ridge that also set records in Phoenix and Las Vegas."),
        ("paso-norte-noticias", "weather", "Calor récord en el suroeste: El Paso roza los 30 grados",
         "El Paso registró el domingo 86 grados Fahrenheit, unos 30 centígrados, una marca para finales de noviembre, en medio de una ola de calor que también rompió récords en Phoenix y Los Ángeles.\n\n"
         "El Servicio Meteorológico prevé un descenso de temperaturas a partir del miércoles, con la llegada de un frente frío desde las montañas de Nuevo México."),
    ]},
    {"id": "E08", "about": "Quebec freezes university tuition for two years", "cov": [
        ("echo-de-la-capitale", "education", "Québec gèle les droits de scolarité universitaires pour deux ans",
         "Le gouvernement du Québec a annoncé mercredi, à l'Assemblée nationale, le gel des droits de scolarité universitaires pour les deux prochaines années, une mesure de 180 millions de dollars.\n\n"
         "La ministre de l'Enseignement supérieur a précisé que les universités recevront une compensation. Les associations étudiantes de l'Université Laval saluent la décision, tout en réclamant davantage de logements abordables près du campus."),
        ("carillon-du-plateau", "education", "Gel des droits de scolarité : soulagement chez les étudiants montréalais",
         "Les étudiants de Montréal accueillent avec soulagement le gel des droits de scolarité universitaires annoncé mercredi par Québec pour deux ans.\n\n"
         "« Avec le prix des loyers sur le Plateau, chaque dollar compte », explique Maëlle Gingras, étudiante en sociologie. Les rectorats attendent de connaître le montant exact de la compensation promise par le gouvernement."),
        ("sentinelle-estrie", "education", "L'Université de Sherbrooke prudente devant le gel des droits",
         "La direction de l'Université de Sherbrooke se dit prudente après l'annonce par Québec d'un gel des droits de scolarité pour deux ans.\n\n"
         "Le vice-recteur aux finances, Jean-Philippe Laroche, rappelle que les coûts de chauffage et d'entretien des pavillons continuent d'augmenter. Il attend les détails de la compensation avant de revoir le budget."),
        ("rideau-record", "education", "Quebec tuition freeze puts pressure on Ontario universities",
         "Quebec's decision on Wednesday to freeze university tuition for two years is drawing attention across the river in Ottawa, where students at the University of Ottawa pay more than their classmates in Gatineau.\n\n"
         "Ontario student groups called on Queen's Park to follow suit. A spokesperson for the Ontario government said it had no plans to change its tuition framework this year."),
    ]},
    {"id": "E09", "about": "Study of Vancouver-Seattle-Portland high-speed rail released", "cov": [
        ("salish-harbour-times", "science-tech", "High-speed rail to Seattle could run in under an hour, study finds",
         "A train between Vancouver and Seattle could make the trip in 57 minutes at speeds up to 400 km/h, according to a long-awaited feasibility study released Thursday by the Cascadia Corridor Partnership.\n\n"
         "The study puts the cost of the full line to Portland, Oregon, at about $42 billion US. Stations would be built in Surrey and Bellingham. Critics say the ridership estimates are optimistic."),
        ("puget-sound-signal", "science-tech", "Cascadia bullet train study: Seattle to Vancouver in 57 minutes",
         "Seattle commuters could reach downtown Vancouver, B.C., in under an hour on a proposed high-speed line, a feasibility study released Thursday says, though the price tag has climbed to roughly $42 billion.\n\n"
         "Engineers propose a tunnel under the Ship Canal and a station near Boeing Field. No money has been committed by Washington state, Oregon or British Columbia."),
        ("rose-city-rambler", "local", "Portland to Seattle by bullet train? New study says two hours to Vancouver",
         "Portland would be the southern end of a Cascadia high-speed rail line in a study released Thursday, with trains reaching Seattle in about an hour and Vancouver, B.C., in just under two.\n\n"
         "City leaders welcomed the report, but some neighbors in North Portland worry about noise near the proposed Columbia River crossing."),
    ]},
    {"id": "E10", "about": "Early blizzard closes Trans-Canada Highway on the Prairies", "cov": [
        ("red-river-courant", "weather", "Blizzard closes Trans-Canada Highway west of Winnipeg",
         "An early-season blizzard shut the Trans-Canada Highway from Winnipeg to the Saskatchewan border on Friday, stranding dozens of trucks near Brandon as winds gusted to 90 km/h.\n\n"
         "Manitoba Infrastructure said the road would stay closed overnight. Winnipeg schools stayed open but several rural divisions cancelled buses. Environment officials expect 25 to 35 centimetres of snow by Saturday morning."),
        ("bow-river-bulletin", "business", "Prairie blizzard strands Calgary freight on the Trans-Canada",
         "Calgary trucking companies said Friday that dozens of their drivers were stuck in Manitoba after a blizzard closed the Trans-Canada Highway west of Winnipeg.\n\n"
         "\"We have loads of groceries sitting in a truck stop in Brandon,\" said dispatcher Colleen Marchetti. Rail shipments were also slowed, and a Calgary food distributor warned of short delays for stores in Winnipeg next week."),
    ]},
    {"id": "E11", "about": "Nor'easter leaves tens of thousands without power in Maine and the Maritimes", "cov": [
        ("halifax-tideline", "weather", "Nor'easter knocks out power to 80,000 in Nova Scotia",
         "A powerful nor'easter brought down trees and power lines across Nova Scotia overnight, leaving about 80,000 customers without electricity on Monday morning, most of them in Halifax and the South Shore.\n\n"
         "Crews from New Brunswick were on their way to help. The Halifax ferry to Dartmouth was cancelled until the afternoon. The utility said most customers should be back on by Tuesday night."),
        ("phare-acadien", "weather", "Tempête : des milliers de foyers privés d'électricité à Moncton",
         "La tempête du nord-est qui a frappé les Maritimes dans la nuit de dimanche à lundi a privé d'électricité près de 20 000 foyers dans la région de Moncton et de Dieppe.\n\n"
         "Des équipes d'Énergie NB sont aussi parties prêter main-forte en Nouvelle-Écosse, où 80 000 clients étaient touchés. Les écoles du district francophone Sud sont fermées pour la journée."),
        ("casco-bay-chronicle", "weather", "Storm cuts power to 30,000 in Greater Portland",
         "The same nor'easter that battered Nova Scotia on Monday left about 30,000 homes and businesses without power across Cumberland County, including large parts of Portland and South Portland.\n\n"
         "Waves topped the seawall on the Eastern Promenade, and the Casco Bay ferries to Peaks Island ran a reduced schedule. Crews expect to restore most service by Tuesday evening."),
    ]},
    {"id": "E12", "about": "Nimbuswell data center planned west of Phoenix", "cov": [
        ("saguaro-sentinel", "business", "Nimbuswell picks Buckeye for a $2.8 billion data center",
         "Cloud company Nimbuswell said Tuesday it will build a $2.8 billion data center campus in Buckeye, west of Phoenix, creating about 300 permanent jobs.\n\n"
         "The company promised to use air cooling for most of the year to limit water use, a sensitive issue in the Valley. Construction starts next spring."),
        ("puget-sound-signal", "science-tech", "Seattle-based Nimbuswell bets on Arizona for its next data center",
         "Nimbuswell, the Seattle cloud company, will put its next large data center in the desert outside Phoenix, the company said Tuesday, citing cheaper power and land.\n\n"
         "Engineers at the South Lake Union headquarters designed a cooling system that uses water only on the hottest days. The company employs about 4,000 people in Seattle."),
        ("bayou-city-beacon", "business", "Houston lost out: Nimbuswell chooses Arizona over Texas for data campus",
         "Houston was a finalist but lost to Buckeye, Arizona, for Nimbuswell's $2.8 billion data center, the Greater Houston business council confirmed Tuesday.\n\n"
         "Council chair Rodney Abernathy said grid reliability questions after recent storms weighed on the decision."),
    ]},
    {"id": "E13", "about": "Greenfold Farms salad kit recall", "cov": [
        ("peachtree-crier", "food", "Greenfold Farms recalls salad kits sold in Georgia over listeria risk",
         "Greenfold Farms is recalling about 40,000 bagged salad kits sold in Georgia and 11 other states after a routine test found listeria at its packing plant, the company said Friday.\n\n"
         "The kits carry best-by dates through December 2. No illnesses have been reported. Atlanta grocers pulled the product from shelves Friday morning; customers can return it for a refund."),
        ("hudson-lantern", "health", "Salad kit recall reaches New York stores",
         "Bagged salad kits from Greenfold Farms sold in New York City grocery stores are part of a multistate recall announced Friday because of possible listeria contamination.\n\n"
         "The city health department urged anyone who is pregnant, older or has a weak immune system to check their refrigerators. The recall covers caesar, southwest and harvest varieties."),
        ("la-voz-del-valle", "health", "Retiran ensaladas en bolsa de Greenfold Farms por riesgo de listeria",
         "La empresa Greenfold Farms retiró el viernes unos 40 mil paquetes de ensaladas listas para comer, vendidos en California y otros once estados, por posible contaminación con listeria.\n\n"
         "No se han reportado enfermos. El departamento de salud del condado de Los Ángeles recomienda tirar el producto o devolverlo en la tienda."),
        ("lakefront-dispatch", "food", "Check your fridge: Greenfold salad kits recalled in Illinois",
         "Chicago shoppers who bought Greenfold Farms salad kits in the past two weeks should throw them away, state health officials said Friday, after the company recalled 40,000 packages over listeria concerns.\n\n"
         "The kits were sold at grocery chains across Illinois. No illnesses have been linked to the product."),
    ]},
    {"id": "E14", "about": "'The Long Tide' wins the Silver Palm at an LA film festival", "cov": [
        ("palisade-post", "entertainment", "'The Long Tide' takes top prize at the Silver Palm Film Festival",
         "The Long Tide, a quiet drama about a fishing family in Baja California, won the jury prize at the Silver Palm Film Festival in Los Angeles on Sunday night.\n\n"
         "Director Inés Marroquín, who shot the film with a crew of twelve, thanked the people of her grandparents' village. The film opens in theaters across Los Angeles in January."),
        ("la-voz-del-valle", "entertainment", "\"La marea larga\", de Inés Marroquín, gana en el festival Palma de Plata",
         "La película \"La marea larga\", de la directora angelina Inés Marroquín, se llevó el premio del jurado del festival Palma de Plata el domingo en Los Ángeles.\n\n"
         "La cinta cuenta la historia de una familia de pescadores y fue rodada casi por completo en español. Se estrenará en salas del sur de California en enero."),
        ("hudson-lantern", "entertainment", "Indie drama 'The Long Tide' wins in LA, heads to New York",
         "Fresh off its jury prize at the Silver Palm Film Festival in Los Angeles, The Long Tide will open the winter series at a Lower East Side cinema next month.\n\n"
         "The film, mostly in Spanish, follows three generations of a fishing family. Tickets go on sale Monday."),
    ]},
    {"id": "E15", "about": "Houston ISD school bond passes", "cov": [
        ("bayou-city-beacon", "education", "Voters approve $1.9 billion Houston school bond",
         "Houston voters approved a $1.9 billion school bond on Tuesday by a margin of 58 to 42 percent, clearing the way for new roofs, air conditioning and 14 rebuilt campuses.\n\n"
         "District leaders said work on the first schools, in the East End and Sunnyside, would start next summer."),
        ("cronica-del-bayou", "education", "Aprobado el bono escolar de Houston por 1,900 millones",
         "Los votantes de Houston aprobaron el martes un bono escolar de 1,900 millones de dólares, con el 58 por ciento de los votos a favor.\n\n"
         "El dinero servirá para reparar techos y sistemas de aire acondicionado y reconstruir 14 escuelas, entre ellas varias del East End, donde vive buena parte de la comunidad hispana. Padres de familia pidieron que las obras no interrumpan las clases."),
    ]},
    {"id": "E16", "about": "Miami police arrest suspects in catalytic converter thefts", "cov": [
        ("biscayne-tidewatch", "crime-safety", "Police arrest three in string of catalytic converter thefts",
         "Miami police arrested three men on Thursday in connection with more than 60 catalytic converter thefts in Little Havana, Allapattah and Coral Way since August.\n\n"
         "Detectives found 23 converters in a storage unit in Doral. Police urged drivers to park in lit areas and to have their converters engraved for free at district stations this Saturday."),
        ("el-faro-de-la-bahia", "crime-safety", "Detienen a tres hombres por robos de catalizadores en la Pequeña Habana",
         "La policía de Miami detuvo el jueves a tres hombres acusados de robar más de 60 convertidores catalíticos en la Pequeña Habana, Allapattah y Coral Way desde agosto.\n\n"
         "Los agentes hallaron 23 piezas en un almacén de Doral. El sábado habrá grabado gratuito de catalizadores en las estaciones de policía."),
    ]},
    {"id": "E17", "about": "Measles exposure at Toronto Pearson airport", "cov": [
        ("don-valley-daily", "health", "Measles case confirmed in traveller who passed through Pearson",
         "Toronto Public Health is warning travellers who were in Terminal 3 at Toronto Pearson on Sunday evening that they may have been exposed to measles.\n\n"
         "The infected adult arrived on an overnight flight and later visited a walk-in clinic in Scarborough. Anyone not fully vaccinated who develops a fever or rash within 21 days should call ahead before visiting a doctor."),
        ("rideau-record", "health", "Ottawa health officials track measles exposure linked to Toronto flight",
         "Ottawa Public Health says two residents were on a connecting flight with a traveller later diagnosed with measles at Toronto Pearson airport.\n\n"
         "Both have been contacted and neither has symptoms. Officials said vaccination rates among Ottawa kindergarten students have dipped slightly since 2020."),
        ("carillon-du-plateau", "health", "Rougeole : des voyageurs montréalais possiblement exposés à Toronto",
         "La Santé publique de Montréal demande aux voyageurs passés par l'aéroport Pearson de Toronto dimanche soir de surveiller l'apparition de fièvre ou de rougeurs.\n\n"
         "Un cas de rougeole a été confirmé chez un passager en correspondance. La vaccination est offerte sans rendez-vous dans les CLSC de l'île."),
    ]},
    {"id": "E18", "about": "Prairie Summit Energy buys Houston pipeline firm", "cov": [
        ("bow-river-bulletin", "business", "Calgary's Prairie Summit Energy buys Houston pipeline operator",
         "Prairie Summit Energy, one of Calgary's fastest-growing producers, agreed on Wednesday to buy Houston-based Gulfline Midstream for $1.4 billion, its first acquisition in the United States.\n\n"
         "Chief executive Harriet Lindqvist said the deal gives the company a path to export terminals on the Gulf Coast. About 200 Gulfline employees will stay in Houston."),
        ("bayou-city-beacon", "business", "Gulfline Midstream agrees to $1.4 billion sale to Canadian producer",
         "Houston's Gulfline Midstream is being sold to Prairie Summit Energy of Calgary, Alberta, in a $1.4 billion deal announced Wednesday.\n\n"
         "The pipeline company's headquarters on Louisiana Street will stay open. Analysts said the price was higher than expected."),
        ("cronica-del-bayou", "business", "Empresa canadiense compra a la texana Gulfline Midstream",
         "La petrolera canadiense Prairie Summit Energy, con sede en Calgary, comprará la empresa de oleoductos Gulfline Midstream, de Houston, por 1,400 millones de dólares.\n\n"
         "La compañía dijo que mantendrá a los 200 empleados en Houston."),
    ]},
    {"id": "E19", "about": "Two Rivers Marathon between Quebec City and Lévis", "cov": [
        ("echo-de-la-capitale", "sports", "Marathon des Deux Rives : record de participation entre Québec et Lévis",
         "Plus de 9 000 coureurs ont pris le départ dimanche du Marathon des Deux Rives, qui relie Lévis et Québec par le pont de Québec, un record pour l'épreuve.\n\n"
         "La Sherbrookoise Annabelle Thibodeau a gagné chez les femmes en 2 h 36. Des rues du Vieux-Québec sont restées fermées jusqu'en milieu d'après-midi."),
        ("sentinelle-estrie", "sports", "Une Sherbrookoise remporte le Marathon des Deux Rives",
         "Annabelle Thibodeau, de Sherbrooke, a remporté dimanche le Marathon des Deux Rives à Québec, en 2 h 36, devant plus de 9 000 participants.\n\n"
         "L'athlète de 29 ans, enseignante au primaire, s'entraîne sur les sentiers du lac des Nations. Elle vise maintenant les qualifications nationales au printemps."),
    ]},
    {"id": "E20", "about": "Atmospheric river soaks Portland, Seattle and Vancouver", "cov": [
        ("rose-city-rambler", "weather", "Atmospheric river brings flooding to Portland streets",
         "An atmospheric river dumped more than three inches of rain on Portland on Wednesday, flooding underpasses on Interstate 84 and closing part of the Springwater Corridor trail.\n\n"
         "Johnson Creek rose above flood stage in the afternoon. The city handed out sandbags at two sites in Southeast Portland."),
        ("puget-sound-signal", "weather", "Seattle soaked as atmospheric river hits the Northwest",
         "Seattle recorded 2.4 inches of rain on Wednesday as an atmospheric river swept from Oregon into British Columbia, causing small landslides along the bluffs in Magnolia.\n\n"
         "Forecasters expect drier weather by the weekend, with snow returning to the Cascade passes."),
        ("salish-harbour-times", "weather", "Rainfall warning for Metro Vancouver as atmospheric river arrives",
         "Environment officials issued a rainfall warning for Metro Vancouver on Wednesday, with up to 100 millimetres expected on the North Shore as the same system that flooded Portland moved north.\n\n"
         "The city asked residents to clear leaves from storm drains on their blocks."),
    ]},
]
